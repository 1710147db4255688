import type { PgClient } from '../../internal/pg.js';
import type { DistributorEventRow, RootRow } from '../transform/roots.js';

const ZERO_ROOT = `0x${'0'.repeat(64)}`;

/** Batch upsert of TreeUpdated rows keyed by (chain, block, log index): replaying a range is harmless. */
export async function upsertRoots(client: PgClient, rows: RootRow[]): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof RootRow>(k: K) => rows.map((r) => r[k]);
  await client.query(
    `INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::int[], $9::bigint[])
     ON CONFLICT (chain_id, block_number, log_index) DO UPDATE SET root = EXCLUDED.root, ipfs_hash = EXCLUDED.ipfs_hash,
       end_of_dispute_period = EXCLUDED.end_of_dispute_period, block_hash = EXCLUDED.block_hash, tx_hash = EXCLUDED.tx_hash, timestamp = EXCLUDED.timestamp`,
    [
      col('chainId'),
      col('root'),
      col('ipfsHash'),
      col('endOfDisputePeriod'),
      col('blockNumber'),
      col('blockHash'),
      col('txHash'),
      col('logIndex'),
      col('timestamp'),
    ],
  );
}

/** Batch upsert of Revoked / Disputed / DisputeResolved rows keyed by (chain, block, log index). */
export async function upsertDistributorEvents(client: PgClient, rows: DistributorEventRow[]): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof DistributorEventRow>(k: K) => rows.map((r) => r[k]);
  await client.query(
    `INSERT INTO distributor_events (chain_id, kind, reason, valid, block_number, block_hash, tx_hash, log_index, timestamp, end_of_dispute_period, disputer)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::bool[], $5::bigint[], $6::text[], $7::text[], $8::int[], $9::bigint[], $10::bigint[], $11::text[])
     ON CONFLICT (chain_id, block_number, log_index) DO UPDATE SET kind = EXCLUDED.kind, reason = EXCLUDED.reason, valid = EXCLUDED.valid,
       block_hash = EXCLUDED.block_hash, tx_hash = EXCLUDED.tx_hash, timestamp = EXCLUDED.timestamp, end_of_dispute_period = EXCLUDED.end_of_dispute_period,
       disputer = EXCLUDED.disputer`,
    [
      col('chainId'),
      col('kind'),
      col('reason'),
      col('valid'),
      col('blockNumber'),
      col('blockHash'),
      col('txHash'),
      col('logIndex'),
      col('timestamp'),
      col('endOfDisputePeriod'),
      col('disputer'),
    ],
  );
}

/**
 * Recomputes the state derived from a chain's root-lifecycle rows, inside the caller's
 * transaction: `roots.revoked` (a root is revoked when the next lifecycle log after it is a Revoked
 * one: revokeTree emits Revoked then TreeUpdated(lastRoot), docs/contracts.md#dispute-period-and-the-live-root) and
 * `chains.end_of_dispute_period`, as the contract stores it: that of the latest TreeUpdated, or of a
 * DisputeResolved(false) after it (which restarts the period from the resolution without a
 * TreeUpdated), 0 after a revoke (its re-emitted TreeUpdated carries a past time but the contract
 * stores 0, docs/contracts.md#dispute-period-and-the-live-root) and 0 without any. Derived rather
 * than set once, so a reorg rollback of the Revoked or TreeUpdated rows is reflected by the next batch.
 * @returns the roots this call flagged revoked (for their `root.revoked` events).
 */
export async function refreshRootState(client: PgClient, chainId: number): Promise<RevokedRoot[]> {
  const { rows } = await client.query<{ root: string; revoked: boolean; revoked_at: string | null }>(
    `WITH seq AS (
       SELECT 'root' AS kind, block_number, log_index FROM roots WHERE chain_id = $1
       UNION ALL
       SELECT kind, block_number, log_index FROM distributor_events WHERE chain_id = $1 AND kind = 'revoked'
     ), flagged AS (
       SELECT kind, block_number, log_index, coalesce(lead(kind) OVER w = 'revoked', false) AS revoked,
         lead(block_number) OVER w AS revoked_at
       FROM seq WINDOW w AS (ORDER BY block_number, log_index)
     )
     UPDATE roots r SET revoked = f.revoked FROM flagged f
     WHERE f.kind = 'root' AND r.chain_id = $1 AND r.block_number = f.block_number AND r.log_index = f.log_index AND r.revoked <> f.revoked
     RETURNING r.root, f.revoked, f.revoked_at::text AS revoked_at`,
    [chainId],
  );
  await client.query(
    `WITH seq AS (
       SELECT 'root' AS kind, end_of_dispute_period AS end_at, tx_hash, block_number, log_index FROM roots WHERE chain_id = $1
       UNION ALL
       SELECT 'revoked', NULL, tx_hash, block_number, log_index FROM distributor_events WHERE chain_id = $1 AND kind = 'revoked'
       UNION ALL
       SELECT 'rejected', end_of_dispute_period, tx_hash, block_number, log_index FROM distributor_events
       WHERE chain_id = $1 AND kind = 'dispute_resolved' AND NOT valid AND end_of_dispute_period IS NOT NULL
     ), ordered AS (
       SELECT kind, end_at, tx_hash, lag(kind) OVER w AS prev_kind, lag(tx_hash) OVER w AS prev_tx,
         row_number() OVER (ORDER BY block_number DESC, log_index DESC) AS n
       FROM seq WINDOW w AS (ORDER BY block_number, log_index)
     )
     UPDATE chains SET end_of_dispute_period = coalesce((
       SELECT CASE WHEN kind = 'revoked' OR (kind = 'root' AND prev_kind = 'revoked' AND prev_tx = tx_hash) THEN 0 ELSE end_at END
       FROM ordered WHERE n = 1), 0), updated_at = now()
     WHERE id = $1`,
    [chainId],
  );
  return rows.filter((r) => r.revoked).map((r) => ({ root: r.root, blockNumber: Number(r.revoked_at) }));
}

/** A root newly flagged revoked, with the block of the Revoked log that revoked it. */
export type RevokedRoot = { root: string; blockNumber: number };

/**
 * Registers a `pending` reward tree for each new non-zero root (content-addressed: a root already
 * known keeps its state).
 */
export async function ensureRewardTrees(client: PgClient, chainId: number, roots: readonly string[]): Promise<void> {
  const wanted = [...new Set(roots.map((r) => r.toLowerCase()))].filter((r) => r !== ZERO_ROOT);
  if (!wanted.length) return;
  await client.query(
    `INSERT INTO reward_trees (chain_id, root) SELECT $1, unnest($2::text[]) ON CONFLICT (chain_id, root) DO NOTHING`,
    [chainId, wanted],
  );
}
