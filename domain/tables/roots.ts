import type { PgClient, PgPool, Queryable } from '../../internal/pg.js';
import { isDisputeOpen, liveRoot } from '../liveRoot.js';
import type { RewardTreeStatus } from '../rewardTree.js';

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
  chain_id: number;
  root: string;
  ipfs_hash: string;
  end_of_dispute_period: string;
  block_number: string;
  block_hash: string;
  tx_hash: string;
  log_index: number;
  timestamp: string;
  revoked: boolean;
  tree_status: RewardTreeStatus | null;
};

function toRootRecord(r: RootDbRow): RootRecord & { treeStatus: RewardTreeStatus | null } {
  return {
    chainId: r.chain_id,
    root: r.root,
    ipfsHash: r.ipfs_hash,
    endOfDisputePeriod: Number(r.end_of_dispute_period),
    blockNumber: Number(r.block_number),
    blockHash: r.block_hash,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    timestamp: Number(r.timestamp),
    revoked: r.revoked,
    treeStatus: r.tree_status,
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

/** What the live-root rule was decided on for one chain (see loadLiveRootState). */
export type LiveRootState = {
  /** The chain's last two non-revoked roots, newest first (`tree` and `lastTree` as the Distributor stores them). */
  latest: (RootRecord & { treeStatus: RewardTreeStatus | null })[];
  disputeOpen: boolean;
  /** While a dispute is open: who opened it (the Distributor's `disputer()`), null when not known (indexed before it was read). */
  disputer: string | null;
  /** The chain time the rule was evaluated at (Unix seconds), null when nothing is indexed. */
  now: number | null;
  live: LiveRootRecord | null;
};

/**
 * The root claims are served against on `chainId`, by the live-root rule (`liveRoot`,
 * docs/contracts.md#dispute-period-and-the-live-root) over the indexed roots and disputes, at the chain's own latest indexed block time
 * (`loadChainTime`: the contract decides on `block.timestamp`, so a root is never served before
 * `getMerkleRoot()` returns it), or at `at` when given (a block time, for tests and history).
 * @returns the live root with its tree status, or null when there is none yet.
 */
export async function loadLiveRoot(
  db: PgPool | PgClient,
  chainId: number,
  at?: number,
): Promise<LiveRootRecord | null> {
  return (await loadLiveRootState(db, chainId, at)).live;
}

/**
 * loadLiveRoot with what it decided on: the two roots the rule looks at (the Distributor's `tree`
 * and `lastTree`), whether a dispute is open and the chain time (GET /v4/roots/live serves them all, #33).
 * Tables roots, reward_trees, distributor_events (and cursors, blocks through loadChainTime).
 */
export async function loadLiveRootState(db: PgPool | PgClient, chainId: number, at?: number): Promise<LiveRootState> {
  // The rule only ever looks at the last two non-revoked roots and the last dispute log.
  const { rows } = await db.query<RootDbRow>(
    `SELECT r.*, t.status AS tree_status FROM roots r LEFT JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root
     WHERE r.chain_id = $1 AND NOT r.revoked ORDER BY r.block_number DESC, r.log_index DESC LIMIT 2`,
    [chainId],
  );
  if (!rows.length) return { latest: [], disputeOpen: false, disputer: null, now: null, live: null };
  const disputes = await db.query<DisputeDbRow>(
    `SELECT kind, valid, end_of_dispute_period, block_number, log_index, disputer FROM distributor_events WHERE chain_id = $1 AND kind <> 'revoked'
     ORDER BY block_number DESC, log_index DESC LIMIT 1`,
    [chainId],
  );
  return decideLiveRoot(rows, disputes.rows, at ?? (await loadChainTime(db, chainId)));
}

/** The last dispute log of a chain (Disputed / DisputeResolved) as stored. */
type DisputeDbRow = {
  kind: 'disputed' | 'dispute_resolved';
  valid: boolean | null;
  end_of_dispute_period: string | null;
  block_number: string;
  log_index: number;
  disputer: string | null;
};

/** Pure: loadLiveRootState's decision over the rows it read (the last two non-revoked roots, the last dispute log, the time). */
function decideLiveRoot(rows: RootDbRow[], disputes: DisputeDbRow[], now: number | null): LiveRootState {
  if (!rows.length) return { latest: [], disputeOpen: false, disputer: null, now: null, live: null };
  const last = disputes.map((d) => ({
    kind: d.kind,
    valid: d.valid,
    endOfDisputePeriod: d.end_of_dispute_period === null ? null : Number(d.end_of_dispute_period),
    blockNumber: Number(d.block_number),
    logIndex: d.log_index,
  }));
  const disputeOpen = isDisputeOpen(last);
  const disputer = disputeOpen ? (disputes[0]?.disputer ?? null) : null;
  const rejectedDisputes = last.flatMap((d) =>
    d.kind === 'dispute_resolved' && d.valid === false && d.endOfDisputePeriod !== null
      ? [{ blockNumber: d.blockNumber, logIndex: d.logIndex, endOfDisputePeriod: d.endOfDisputePeriod }]
      : [],
  );
  const latest = rows.map(toRootRecord);
  if (now === null) return { latest, disputeOpen, disputer, now, live: null };
  const live = liveRoot({ roots: latest, now, disputeOpen, rejectedDisputes });
  return { latest, disputeOpen, disputer, now, live: live ? { ...live, disputeOpen } : null };
}

/**
 * loadLiveRoot of several chains in one statement (the reads that need every chain's live root on
 * each request, GET /v4/rewards/total/distributed: one round trip instead of three per chain), by
 * the same rule over the same rows (decideLiveRoot; their bigint columns arrive as JSON numbers,
 * which toRootRecord reads as it reads the strings of a plain query).
 * @returns per chain id, its live root or null.
 */
export async function loadLiveRoots(
  db: PgPool | PgClient,
  chainIds: readonly number[],
): Promise<Map<number, LiveRootRecord | null>> {
  const { rows } = await db.query<{
    chain_id: number;
    roots: RootDbRow[];
    disputes: DisputeDbRow[];
    now: string | null;
  }>(
    `SELECT c.id AS chain_id,
       (SELECT coalesce(json_agg(x ORDER BY x.block_number DESC, x.log_index DESC), '[]') FROM (
          SELECT r.*, t.status AS tree_status FROM roots r LEFT JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root
          WHERE r.chain_id = c.id AND NOT r.revoked ORDER BY r.block_number DESC, r.log_index DESC LIMIT 2) x) AS roots,
       (SELECT coalesce(json_agg(d), '[]') FROM (
          SELECT kind, valid, end_of_dispute_period, block_number, log_index, disputer FROM distributor_events WHERE chain_id = c.id AND kind <> 'revoked'
          ORDER BY block_number DESC, log_index DESC LIMIT 1) d) AS disputes,
       greatest(
         (SELECT b.timestamp FROM cursors k JOIN blocks b ON b.chain_id = k.chain_id AND b.number = k.block_number WHERE k.job = 'roots' AND k.chain_id = c.id),
         (SELECT max(timestamp) FROM roots WHERE chain_id = c.id),
         (SELECT max(timestamp) FROM distributor_events WHERE chain_id = c.id))::text AS now
     FROM unnest($1::int[]) AS c(id)`,
    [chainIds],
  );
  return new Map(
    rows.map((r) => [r.chain_id, decideLiveRoot(r.roots, r.disputes, r.now === null ? null : Number(r.now)).live]),
  );
}

/** Every root row of a chain in chain order (oldest first). */
export async function listRoots(
  db: PgPool | PgClient,
  chainId: number,
): Promise<(RootRecord & { treeStatus: RewardTreeStatus | null })[]> {
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
export async function loadVerifiedRootAt(
  db: Queryable,
  chainId: number,
  ts: number,
): Promise<{ root: string; timestamp: number } | null> {
  const { rows } = await db.query<{ root: string; timestamp: number }>(
    `SELECT r.root, r.timestamp::float8 AS timestamp FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified'
     WHERE r.chain_id = $1 AND r.timestamp <= $2 AND NOT r.revoked ORDER BY r.timestamp DESC, r.block_number DESC, r.log_index DESC LIMIT 1`,
    [chainId, ts],
  );
  return rows[0] ?? null;
}
