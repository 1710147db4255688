import type { PgClient, PgPool } from '../../internal/pg.js';
import type { ClaimRow } from '../transform/claims.js';

/**
 * Batch upsert of Claimed rows keyed by (chain, tx hash, log index): replaying a range is
 * harmless, and a transaction re-mined in another block after a reorg moves its row.
 */
export async function upsertClaims(client: PgClient, rows: ClaimRow[]): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof ClaimRow>(k: K) => rows.map((r) => r[k]);
  await client.query(
    `INSERT INTO claims (chain_id, recipient, token, amount, block_number, block_hash, tx_hash, log_index, timestamp)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::numeric[], $5::bigint[], $6::text[], $7::text[], $8::int[], $9::bigint[])
     ON CONFLICT (chain_id, tx_hash, log_index) DO UPDATE SET recipient = EXCLUDED.recipient, token = EXCLUDED.token, amount = EXCLUDED.amount,
       block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, timestamp = EXCLUDED.timestamp`,
    [
      col('chainId'),
      col('recipient'),
      col('token'),
      col('amount'),
      col('blockNumber'),
      col('blockHash'),
      col('txHash'),
      col('logIndex'),
      col('timestamp'),
    ],
  );
}

/** Records that claims of `chainId` were read from the chain up to its stored head just now. */
export async function markClaimsFetched(db: PgPool | PgClient, chainId: number): Promise<void> {
  await db.query('UPDATE chains SET last_claims_onchain_fetch_at = now(), updated_at = now() WHERE id = $1', [chainId]);
}
