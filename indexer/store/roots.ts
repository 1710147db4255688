import type { PgClient, PgPool } from '../../internal/pg.js';
import { isDisputeOpen, liveRoot } from '../../domain/liveRoot.js';
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
    `INSERT INTO distributor_events (chain_id, kind, reason, valid, block_number, block_hash, tx_hash, log_index, timestamp)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::bool[], $5::bigint[], $6::text[], $7::text[], $8::int[], $9::bigint[])
     ON CONFLICT (chain_id, block_number, log_index) DO UPDATE SET kind = EXCLUDED.kind, reason = EXCLUDED.reason, valid = EXCLUDED.valid,
       block_hash = EXCLUDED.block_hash, tx_hash = EXCLUDED.tx_hash, timestamp = EXCLUDED.timestamp`,
    [col('chainId'), col('kind'), col('reason'), col('valid'), col('blockNumber'), col('blockHash'), col('txHash'), col('logIndex'), col('timestamp')],
  );
}

/**
 * Recomputes the state derived from a chain's root-lifecycle rows, inside the caller's
 * transaction: `roots.revoked` (a root is revoked when the next lifecycle log after it is a Revoked
 * one: revokeTree emits Revoked then TreeUpdated(lastRoot), chain-facts §2.5) and
 * `chains.end_of_dispute_period` (that of the latest TreeUpdated, 0 without one). Derived rather
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
    `UPDATE chains SET end_of_dispute_period = coalesce(
       (SELECT end_of_dispute_period FROM roots WHERE chain_id = $1 ORDER BY block_number DESC, log_index DESC LIMIT 1), 0), updated_at = now()
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
 * The root claims are served against on `chainId` at `now` (Unix seconds), by the live-root rule
 * (`liveRoot`, chain-facts §2.5) over the indexed roots and disputes.
 * @returns the live root with its tree status, or null when there is none yet.
 */
export async function loadLiveRoot(db: PgPool | PgClient, chainId: number, now: number): Promise<LiveRootRecord | null> {
  // The rule only ever looks at the last two non-revoked roots.
  const { rows } = await db.query<RootDbRow>(
    `SELECT r.*, t.status AS tree_status FROM roots r LEFT JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root
     WHERE r.chain_id = $1 AND NOT r.revoked ORDER BY r.block_number DESC, r.log_index DESC LIMIT 2`,
    [chainId],
  );
  const disputes = await db.query<{ kind: 'disputed' | 'dispute_resolved'; block_number: string; log_index: number }>(
    `SELECT kind, block_number, log_index FROM distributor_events WHERE chain_id = $1 AND kind <> 'revoked'
     ORDER BY block_number DESC, log_index DESC LIMIT 1`,
    [chainId],
  );
  const disputeOpen = isDisputeOpen(disputes.rows.map((d) => ({ kind: d.kind, blockNumber: Number(d.block_number), logIndex: d.log_index })));
  const live = liveRoot({ roots: rows.map(toRootRecord), now, disputeOpen });
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
