import type { PgClient, PgPool } from '../../internal/pg.js';
import { isDisputeOpen, liveRoot } from '../liveRoot.js';
import type { DistributorEventRow, RootRow } from '../transform/roots.js';
import type { RewardTreeStatus } from './rewardTrees.js';

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
    [col('chainId'), col('root'), col('ipfsHash'), col('endOfDisputePeriod'), col('blockNumber'), col('blockHash'), col('txHash'), col('logIndex'), col('timestamp')],
  );
}

/** Batch upsert of Revoked / Disputed / DisputeResolved rows keyed by (chain, block, log index). */
export async function upsertDistributorEvents(client: PgClient, rows: DistributorEventRow[]): Promise<void> {
  if (!rows.length) return;
  const col = <K extends keyof DistributorEventRow>(k: K) => rows.map((r) => r[k]);
  await client.query(
    `INSERT INTO distributor_events (chain_id, kind, reason, valid, block_number, block_hash, tx_hash, log_index, timestamp, end_of_dispute_period)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::bool[], $5::bigint[], $6::text[], $7::text[], $8::int[], $9::bigint[], $10::bigint[])
     ON CONFLICT (chain_id, block_number, log_index) DO UPDATE SET kind = EXCLUDED.kind, reason = EXCLUDED.reason, valid = EXCLUDED.valid,
       block_hash = EXCLUDED.block_hash, tx_hash = EXCLUDED.tx_hash, timestamp = EXCLUDED.timestamp, end_of_dispute_period = EXCLUDED.end_of_dispute_period`,
    [col('chainId'), col('kind'), col('reason'), col('valid'), col('blockNumber'), col('blockHash'), col('txHash'), col('logIndex'), col('timestamp'),
      col('endOfDisputePeriod')],
  );
}

/**
 * Recomputes the state derived from a chain's root-lifecycle rows, inside the caller's
 * transaction: `roots.revoked` (a root is revoked when the next lifecycle log after it is a Revoked
 * one: revokeTree emits Revoked then TreeUpdated(lastRoot), chain-facts §2.5) and
 * `chains.end_of_dispute_period`, as the contract stores it: that of the latest TreeUpdated, or of a
 * DisputeResolved(false) after it (which restarts the period from the resolution without a
 * TreeUpdated), 0 after a revoke (its re-emitted TreeUpdated carries a past time but the contract
 * stores 0, chain-facts §2.5) and 0 without any. Derived rather
 * than set once, so a reorg rollback of the Revoked or TreeUpdated rows is reflected by the next batch.
 */
export async function refreshRootState(client: PgClient, chainId: number): Promise<void> {
  await client.query(
    `WITH seq AS (
       SELECT 'root' AS kind, block_number, log_index FROM roots WHERE chain_id = $1
       UNION ALL
       SELECT kind, block_number, log_index FROM distributor_events WHERE chain_id = $1 AND kind = 'revoked'
     ), flagged AS (
       SELECT kind, block_number, log_index, coalesce(lead(kind) OVER (ORDER BY block_number, log_index) = 'revoked', false) AS revoked FROM seq
     )
     UPDATE roots r SET revoked = f.revoked FROM flagged f
     WHERE f.kind = 'root' AND r.chain_id = $1 AND r.block_number = f.block_number AND r.log_index = f.log_index AND r.revoked <> f.revoked`,
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
}

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

/** A `roots` row in TS form. */
export type RootRecord = {
  chainId: number;
  root: string;
  ipfsHash: string;
  endOfDisputePeriod: number;
  blockNumber: number;
  blockHash: string;
  txHash: string;
  logIndex: number;
  timestamp: number;
  revoked: boolean;
};

export type LiveRootRecord = RootRecord & {
  /** Verification state of its reward tree (null for the zero root); only `verified` has rewards. */
  treeStatus: RewardTreeStatus | null;
  /** Whether a dispute is open on the chain (then the live root is the previous one). */
  disputeOpen: boolean;
};

type RootDbRow = {
  chain_id: number; root: string; ipfs_hash: string; end_of_dispute_period: string; block_number: string; block_hash: string;
  tx_hash: string; log_index: number; timestamp: string; revoked: boolean; tree_status: RewardTreeStatus | null;
};

function toRootRecord(r: RootDbRow): RootRecord & { treeStatus: RewardTreeStatus | null } {
  return {
    chainId: r.chain_id, root: r.root, ipfsHash: r.ipfs_hash, endOfDisputePeriod: Number(r.end_of_dispute_period), blockNumber: Number(r.block_number),
    blockHash: r.block_hash, txHash: r.tx_hash, logIndex: r.log_index, timestamp: Number(r.timestamp), revoked: r.revoked, treeStatus: r.tree_status,
  };
}

/**
 * The chain's own latest indexed time on `chainId` (Unix seconds): the block time of the roots job's
 * cursor (every root-lifecycle log up to that block is indexed), and never before the latest indexed
 * root-lifecycle log. Null when nothing is indexed. Tables cursors, blocks, roots, distributor_events.
 */
export async function loadChainTime(db: PgPool | PgClient, chainId: number): Promise<number | null> {
  const { rows } = await db.query<{ t: string | null }>(
    `SELECT greatest(
       (SELECT b.timestamp FROM cursors c JOIN blocks b ON b.chain_id = c.chain_id AND b.number = c.block_number WHERE c.job = 'roots' AND c.chain_id = $1),
       (SELECT max(timestamp) FROM roots WHERE chain_id = $1),
       (SELECT max(timestamp) FROM distributor_events WHERE chain_id = $1))::text AS t`,
    [chainId],
  );
  return rows[0]?.t == null ? null : Number(rows[0].t);
}

/**
 * The root claims are served against on `chainId`, by the live-root rule (`liveRoot`, chain-facts
 * §2.5) over the indexed roots and disputes, at the chain's own latest indexed block time
 * (`loadChainTime`: the contract decides on `block.timestamp`, so a root is never served before
 * `getMerkleRoot()` returns it), or at `at` when given (a block time, for tests and history).
 * @returns the live root with its tree status, or null when there is none yet.
 */
export async function loadLiveRoot(db: PgPool | PgClient, chainId: number, at?: number): Promise<LiveRootRecord | null> {
  // The rule only ever looks at the last two non-revoked roots and the last dispute log.
  const { rows } = await db.query<RootDbRow>(
    `SELECT r.*, t.status AS tree_status FROM roots r LEFT JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root
     WHERE r.chain_id = $1 AND NOT r.revoked ORDER BY r.block_number DESC, r.log_index DESC LIMIT 2`,
    [chainId],
  );
  if (!rows.length) return null;
  const disputes = await db.query<{ kind: 'disputed' | 'dispute_resolved'; valid: boolean | null; end_of_dispute_period: string | null; block_number: string; log_index: number }>(
    `SELECT kind, valid, end_of_dispute_period, block_number, log_index FROM distributor_events WHERE chain_id = $1 AND kind <> 'revoked'
     ORDER BY block_number DESC, log_index DESC LIMIT 1`,
    [chainId],
  );
  const last = disputes.rows.map((d) => ({
    kind: d.kind, valid: d.valid, endOfDisputePeriod: d.end_of_dispute_period === null ? null : Number(d.end_of_dispute_period),
    blockNumber: Number(d.block_number), logIndex: d.log_index,
  }));
  const disputeOpen = isDisputeOpen(last);
  const rejectedDisputes = last.flatMap((d) => (d.kind === 'dispute_resolved' && d.valid === false && d.endOfDisputePeriod !== null
    ? [{ blockNumber: d.blockNumber, logIndex: d.logIndex, endOfDisputePeriod: d.endOfDisputePeriod }] : []));
  const now = at ?? (await loadChainTime(db, chainId));
  if (now === null) return null;
  const live = liveRoot({ roots: rows.map(toRootRecord), now, disputeOpen, rejectedDisputes });
  return live ? { ...live, disputeOpen } : null;
}

/** Every root row of a chain in chain order (oldest first). */
export async function listRoots(db: PgPool | PgClient, chainId: number): Promise<(RootRecord & { treeStatus: RewardTreeStatus | null })[]> {
  const { rows } = await db.query<RootDbRow>(
    `SELECT r.*, t.status AS tree_status FROM roots r LEFT JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root
     WHERE r.chain_id = $1 ORDER BY r.block_number, r.log_index`,
    [chainId],
  );
  return rows.map(toRootRecord);
}

/**
 * The last root of `chainId` at or before `ts` (Unix seconds) whose reward tree is verified and
 * which was not revoked, or null. Tables: roots, reward_trees.
 */
export async function loadVerifiedRootAt(db: PgPool | PgClient, chainId: number, ts: number): Promise<{ root: string; timestamp: number } | null> {
  const { rows } = await db.query<{ root: string; timestamp: number }>(
    `SELECT r.root, r.timestamp::float8 AS timestamp FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified'
     WHERE r.chain_id = $1 AND r.timestamp <= $2 AND NOT r.revoked ORDER BY r.timestamp DESC, r.block_number DESC, r.log_index DESC LIMIT 1`, [chainId, ts]);
  return rows[0] ?? null;
}
