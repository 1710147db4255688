import type { PgClient, PgPool } from '../../../internal/pg.js';

type Db = Pick<PgPool | PgClient, 'query'>;

/** One Disputed log with the root it disputed and its resolution, as disputeRows reads it (bigints as strings). */
export type DisputeRow = {
  chain_id: number;
  block_number: string;
  log_index: number;
  tx_hash: string;
  timestamp: string;
  reason: string | null;
  disputer: string | null;
  root: string | null;
  root_revoked: boolean | null;
  resolved_kind: 'disputed' | 'dispute_resolved' | null;
  valid: boolean | null;
  resolved_block: string | null;
  resolved_log_index: number | null;
  resolved_tx: string | null;
  resolved_at: string | null;
  resolved_end: string | null;
};

/**
 * The Disputed logs of a chain with, for each, the root it disputed and its resolution. The Distributor allows one
 * dispute at a time (`disputeTree` while none is open, `resolveDispute` only while one is), so the logs alternate
 * Disputed, DisputeResolved, …: a dispute's resolution is the next dispute log after it when that one is a
 * DisputeResolved. The disputed root is the Distributor's `tree` at the Disputed log: every change of `tree` emits a
 * TreeUpdated (a revoke re-emits the previous root), so it is the last `roots` row before the log. Each lateral walks
 * an index (roots' and distributor_events' primary keys, distributor_events_kind_idx).
 */
const DISPUTES_SQL = `SELECT d.chain_id, d.block_number::text AS block_number, d.log_index, d.tx_hash, d.timestamp::text AS timestamp,
    d.reason, d.disputer, r.root, r.revoked AS root_revoked,
    s.kind AS resolved_kind, s.valid, s.block_number::text AS resolved_block, s.log_index AS resolved_log_index,
    s.tx_hash AS resolved_tx, s.timestamp::text AS resolved_at, s.end_of_dispute_period::text AS resolved_end
  FROM distributor_events d
  LEFT JOIN LATERAL (
    SELECT x.root, x.revoked FROM roots x
    WHERE x.chain_id = d.chain_id AND (x.block_number, x.log_index) < (d.block_number, d.log_index)
    ORDER BY x.block_number DESC, x.log_index DESC LIMIT 1) r ON true
  LEFT JOIN LATERAL (
    SELECT e.kind, e.valid, e.block_number, e.log_index, e.tx_hash, e.timestamp, e.end_of_dispute_period FROM distributor_events e
    WHERE e.chain_id = d.chain_id AND e.kind <> 'revoked' AND (e.block_number, e.log_index) > (d.block_number, d.log_index)
    ORDER BY e.block_number, e.log_index LIMIT 1) s ON true`;

/** The status a dispute row resolves to, in SQL over DISPUTES_SQL's columns. */
const STATUS_SQL = `CASE WHEN resolved_kind = 'dispute_resolved' THEN CASE WHEN valid THEN 'valid' ELSE 'invalid' END ELSE 'open' END`;

export type DisputeStatus = 'open' | 'valid' | 'invalid';

/**
 * A chain's disputes newest first, paged, optionally of one status. Tables distributor_events, roots.
 */
export async function listChainDisputes(
  db: Db,
  q: { chainId: number; status?: DisputeStatus; page: number; items: number },
): Promise<DisputeRow[]> {
  const { rows } = await db.query<DisputeRow>(
    `SELECT * FROM (${DISPUTES_SQL} WHERE d.chain_id = $1 AND d.kind = 'disputed') t
     WHERE $2::text IS NULL OR ${STATUS_SQL} = $2
     ORDER BY t.block_number::bigint DESC, t.log_index DESC LIMIT $3 OFFSET $4`,
    [q.chainId, q.status ?? null, q.items, q.page * q.items],
  );
  return rows;
}

/** The last dispute of each chain (open or not), oldest chain id first. Tables distributor_events, roots. */
export async function lastDisputes(db: Db, chainIds: readonly number[]): Promise<DisputeRow[]> {
  const { rows } = await db.query<DisputeRow>(
    `SELECT t.* FROM unnest($1::int[]) AS c(id) CROSS JOIN LATERAL (
       ${DISPUTES_SQL} WHERE d.chain_id = c.id AND d.kind = 'disputed' ORDER BY d.block_number DESC, d.log_index DESC LIMIT 1) t
     ORDER BY t.chain_id`,
    [chainIds],
  );
  return rows;
}

/** A root row (one TreeUpdated log) as the per-root reads see it. */
export type RootPosition = { root: string; block_number: string; log_index: number };

/**
 * The last `n` roots rows of a chain, newest first, and the disputes opened since the oldest of them, in chain order
 * (each attached to the root it disputed). Tables roots, distributor_events.
 */
export async function recentRootsWithDisputes(
  db: Db,
  chainId: number,
  n: number,
): Promise<{ roots: RootPosition[]; disputes: DisputeRow[] }> {
  const { rows: roots } = await db.query<RootPosition>(
    `SELECT root, block_number::text AS block_number, log_index FROM roots WHERE chain_id = $1
     ORDER BY block_number DESC, log_index DESC LIMIT $2`,
    [chainId, n],
  );
  const oldest = roots.at(-1);
  if (!oldest) return { roots, disputes: [] };
  const { rows: disputes } = await db.query<DisputeRow>(
    `${DISPUTES_SQL} WHERE d.chain_id = $1 AND d.kind = 'disputed' AND (d.block_number, d.log_index) > ($2::bigint, $3::int)
     ORDER BY d.block_number, d.log_index`,
    [chainId, oldest.block_number, oldest.log_index],
  );
  return { roots, disputes };
}
