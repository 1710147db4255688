import type { PgClient } from '../../internal/pg.js';
import { getCursor } from './cursor.js';
import { BaseError } from '../../internal/errors.js';

/** Namespace of the per-chain write locks (first key of the two-key advisory lock). */
const CHAIN_LOCK_NAMESPACE = 0x636861; // "cha"

/** The chain changed under a batch: its rows must not land; the next run re-reads the new chain. */
export class ReorgDetectedError extends BaseError {
  override readonly retryable = true;
  override name = 'ReorgDetectedError';
}

/**
 * Serializes every write of chain-derived rows on one chain with the reorg rollback of that chain
 * (transaction-scoped advisory lock, released at commit or rollback).
 */
export async function lockChainForWrite(client: PgClient, chainId: number): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, $2)', [CHAIN_LOCK_NAMESPACE, chainId]);
}

/** Last block of the canonical header chain stored by the blocks job, or null before its first run. */
export async function canonicalHead(db: Pick<PgClient, 'query'>, chainId: number): Promise<number | null> {
  return getCursor(db, 'blocks', chainId);
}

/**
 * Inside the caller's transaction (after lockChainForWrite): checks that the batch's range is
 * covered by stored headers and that every block the batch read from has the stored hash.
 * @throws ReorgDetectedError otherwise, so the batch rolls back and is retried on the new chain.
 */
export async function assertCanonical(
  client: PgClient,
  chainId: number,
  to: number,
  hashes: ReadonlyMap<number, string>,
): Promise<void> {
  const head = await canonicalHead(client, chainId);
  if (head === null || head < to)
    throw new ReorgDetectedError(`chain ${chainId}: headers stored up to ${head ?? 'none'}, batch reaches ${to}`);
  if (!hashes.size) return;
  const numbers = [...hashes.keys()];
  const { rows } = await client.query<{ number: string; hash: string }>(
    'SELECT number, hash FROM blocks WHERE chain_id = $1 AND number = ANY($2::bigint[])',
    [chainId, numbers],
  );
  const stored = new Map(rows.map((r) => [Number(r.number), r.hash]));
  for (const [number, hash] of hashes) {
    if (stored.get(number) !== hash.toLowerCase()) {
      throw new ReorgDetectedError(
        `chain ${chainId}: block ${number} read as ${hash}, stored ${stored.get(number) ?? 'none'}`,
      );
    }
  }
}
