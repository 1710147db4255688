import type { PgClient, PgPool } from '../../internal/pg.js';
import { isDisputeOpen, liveRoot } from '../../domain/liveRoot.js';
import type { RewardTreeStatus } from '../../domain/rewardTree.js';

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
 * (`liveRoot`, docs/contracts.md#dispute-period-and-the-live-root) over the indexed roots and disputes.
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

