import type { PgClient, PgPool } from '../../internal/pg.js';
import { redactStored } from '../../internal/redact.js';
import type { RewardTreeFile } from '../decode/parseRewardTree.js';
import type { RewardTreeStatus } from '../../domain/rewardTree.js';

/** A `reward_trees` row in TS form. */
export type RewardTreeRecord = {
  chainId: number;
  root: string;
  status: RewardTreeStatus;
  computedRoot: string | null;
  leaves: number | null;
  error: string | null;
  attempts: number;
  checkedAt: Date | null;
};

type TreeDbRow = {
  chain_id: number;
  root: string;
  status: RewardTreeStatus;
  computed_root: string | null;
  leaves: number | null;
  error: string | null;
  attempts: number;
  checked_at: Date | null;
};

const toRecord = (r: TreeDbRow): RewardTreeRecord => ({
  chainId: r.chain_id,
  root: r.root,
  status: r.status,
  computedRoot: r.computed_root,
  leaves: r.leaves,
  error: r.error,
  attempts: r.attempts,
  checkedAt: r.checked_at,
});

/**
 * Trees still to settle on `chainId` (pending or unavailable) whose root is indexed on the chain,
 * least recently checked first, at most `limit` (the per-run bound on fetch attempts).
 */
export async function listTreesToCheck(
  db: PgPool | PgClient,
  chainId: number,
  limit: number,
): Promise<RewardTreeRecord[]> {
  const { rows } = await db.query<TreeDbRow>(
    `SELECT t.* FROM reward_trees t
     WHERE t.chain_id = $1 AND t.status IN ('pending', 'unavailable')
       AND EXISTS (SELECT 1 FROM roots r WHERE r.chain_id = t.chain_id AND r.root = t.root)
     ORDER BY t.checked_at NULLS FIRST, t.created_at LIMIT $2`,
    [chainId, limit],
  );
  return rows.map(toRecord);
}

/** The verification state of one tree, or null when the root was never indexed. */
export async function getRewardTree(
  db: PgPool | PgClient,
  chainId: number,
  root: string,
): Promise<RewardTreeRecord | null> {
  const { rows } = await db.query<TreeDbRow>('SELECT * FROM reward_trees WHERE chain_id = $1 AND root = $2', [
    chainId,
    root.toLowerCase(),
  ]);
  return rows[0] ? toRecord(rows[0]) : null;
}

const CHUNK = 5000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

export type StoreVerifiedTreeParams = {
  chainId: number;
  root: string;
  tree: RewardTreeFile;
  computedRoot: string;
  leaves: number;
};

/**
 * Inside the caller's transaction: stores a verified tree's rewards and breakdowns under its root
 * and marks the tree verified. Call only with a tree that passed verifyRewardTree.
 * @returns the number of reward rows written.
 */
export async function storeVerifiedTree(
  client: PgClient,
  { chainId, root, tree, computedRoot, leaves }: StoreVerifiedTreeParams,
): Promise<number> {
  const key = root.toLowerCase();
  await client.query('DELETE FROM rewards WHERE chain_id = $1 AND root = $2', [chainId, key]);
  for (const part of chunks(tree.rewards)) {
    await client.query(
      `INSERT INTO rewards (chain_id, root, recipient, token, amount)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::numeric[])`,
      [chainId, key, part.map((r) => r.recipient), part.map((r) => r.token), part.map((r) => r.amount)],
    );
  }
  const breakdowns = tree.rewards.flatMap((r) =>
    r.breakdowns.map((b) => ({ recipient: r.recipient, token: r.token, ...b })),
  );
  for (const part of chunks(breakdowns)) {
    await client.query(
      `INSERT INTO reward_breakdowns (chain_id, root, recipient, token, campaign_id, reason, amount)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[])`,
      [
        chainId,
        key,
        part.map((b) => b.recipient),
        part.map((b) => b.token),
        part.map((b) => b.campaignId),
        part.map((b) => b.reason),
        part.map((b) => b.amount),
      ],
    );
  }
  await markTree(client, { chainId, root, status: 'verified', computedRoot, leaves, error: null });
  return tree.rewards.length;
}

export type MarkTreeParams = {
  chainId: number;
  root: string;
  status: Exclude<RewardTreeStatus, 'pending'>;
  computedRoot: string | null;
  leaves: number | null;
  error: string | null;
};

/** Records the outcome of one check of a tree (attempts + 1, checked now); the error text is stored redacted (a tree source URL may carry a token). */
export async function markTree(
  db: PgPool | PgClient,
  { chainId, root, status, computedRoot, leaves, error }: MarkTreeParams,
): Promise<void> {
  await db.query(
    `UPDATE reward_trees SET status = $3, computed_root = $4, leaves = $5, error = $6, attempts = attempts + 1, checked_at = now()
     WHERE chain_id = $1 AND root = $2`,
    [chainId, root.toLowerCase(), status, computedRoot, leaves, redactStored(error)],
  );
}
