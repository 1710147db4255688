import type { PgClient, PgPool } from '../../internal/pg.js';
import { redactStored } from '../../internal/redact.js';
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

/** Rows per staging statement of storeTreeEntries. */
const CHUNK = 5000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * The entries of the tree being stored, in the storing transaction: one row per leaf (kind L) and
 * per breakdown (kind B), written by COPY as the document is read (stageRewardTree.ts) or from
 * memory (storeTreeEntries). Dropped at commit; emptied first when one transaction stores several.
 */
export async function createStagedEntries(client: PgClient): Promise<void> {
  await client.query(
    `CREATE TEMP TABLE IF NOT EXISTS staged_entries (
       kind "char" NOT NULL, recipient text NOT NULL, token text NOT NULL, campaign_id text, reason text, amount numeric(78, 0) NOT NULL
     ) ON COMMIT DROP`,
  );
  await client.query('TRUNCATE staged_entries');
}

const STAGED_LEAVES = "(SELECT recipient, token, amount FROM staged_entries WHERE kind = 'L')";
const STAGED_BREAKDOWNS = "(SELECT recipient, token, campaign_id, reason, amount FROM staged_entries WHERE kind = 'B')";

/** (recipient, token) pairs staged more than once (at most `limit`, named `recipient-token`). */
export async function stagedDuplicates(client: PgClient, limit = 6): Promise<string[]> {
  const { rows } = await client.query<{ key: string }>(
    `SELECT recipient || '-' || token AS key FROM ${STAGED_LEAVES} s GROUP BY recipient, token HAVING count(*) > 1
     ORDER BY 1 LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.key);
}

export type StoreTreeEntriesParams = {
  chainId: number;
  root: string;
  leaves: readonly { recipient: string; token: string; amount: string }[];
  breakdowns: readonly { recipient: string; token: string; campaignId: string; reason: string; amount: string }[];
};

/**
 * Inside the caller's transaction: the amounts of a tree held in memory (tests, small trees),
 * staged and stored by change as storeStagedTree describes; its status is the caller's business.
 */
export async function storeTreeEntries(
  client: PgClient,
  { chainId, root, leaves, breakdowns }: StoreTreeEntriesParams,
): Promise<void> {
  await createStagedEntries(client);
  for (const part of chunks(leaves)) {
    await client.query(
      "INSERT INTO staged_entries (kind, recipient, token, amount) SELECT 'L', * FROM unnest($1::text[], $2::text[], $3::numeric[])",
      [part.map((r) => r.recipient), part.map((r) => r.token), part.map((r) => r.amount)],
    );
  }
  for (const part of chunks(breakdowns)) {
    await client.query(
      `INSERT INTO staged_entries (kind, recipient, token, campaign_id, reason, amount)
       SELECT 'B', * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::numeric[])`,
      [
        part.map((b) => b.recipient),
        part.map((b) => b.token),
        part.map((b) => b.campaignId),
        part.map((b) => b.reason),
        part.map((b) => b.amount),
      ],
    );
  }
  await storeStagedTree(client, chainId, root);
}

/**
 * Inside the caller's transaction: the staged entries (createStagedEntries) become the amounts of
 * the tree `root` of `chainId`, stored by change (sql/migrations/2026_11_28_01_reward_versions.sql):
 * the tree gets the next seq (a tree stored again gets a new one), and its entries are compared
 * with the open versions of the chain (the latest stored tree): versions that changed or are gone
 * are closed at this seq, changed and new ones are opened, unchanged ones simply go on, so a root
 * costs what changed. Tables reward_trees, reward_leaf_versions, reward_breakdown_versions.
 */
export async function storeStagedTree(client: PgClient, chainId: number, root: string): Promise<void> {
  await client.query('ANALYZE staged_entries');
  const { rows } = await client.query<{ seq: string }>(
    `UPDATE reward_trees SET seq = nextval('reward_tree_seq') WHERE chain_id = $1 AND root = $2 RETURNING seq`,
    [chainId, root.toLowerCase()],
  );
  const seq = rows[0]!.seq;
  await client.query(
    `UPDATE reward_leaf_versions v SET until_seq = $2
     WHERE v.chain_id = $1 AND v.until_seq IS NULL
       AND NOT EXISTS (SELECT 1 FROM ${STAGED_LEAVES} s WHERE s.recipient = v.recipient AND s.token = v.token AND s.amount = v.amount)`,
    [chainId, seq],
  );
  await client.query(
    `INSERT INTO reward_leaf_versions (chain_id, recipient, token, amount, since_seq)
     SELECT $1, s.recipient, s.token, s.amount, $2 FROM ${STAGED_LEAVES} s
     WHERE NOT EXISTS (SELECT 1 FROM reward_leaf_versions v
       WHERE v.chain_id = $1 AND v.until_seq IS NULL AND v.recipient = s.recipient AND v.token = s.token)`,
    [chainId, seq],
  );
  await client.query(
    `UPDATE reward_breakdown_versions v SET until_seq = $2
     WHERE v.chain_id = $1 AND v.until_seq IS NULL
       AND NOT EXISTS (SELECT 1 FROM ${STAGED_BREAKDOWNS} s WHERE s.recipient = v.recipient AND s.token = v.token
         AND s.campaign_id = v.campaign_id AND s.reason = v.reason AND s.amount = v.amount)`,
    [chainId, seq],
  );
  await client.query(
    `INSERT INTO reward_breakdown_versions (chain_id, recipient, token, campaign_id, reason, amount, since_seq)
     SELECT $1, s.recipient, s.token, s.campaign_id, s.reason, s.amount, $2 FROM ${STAGED_BREAKDOWNS} s
     WHERE NOT EXISTS (SELECT 1 FROM reward_breakdown_versions v
       WHERE v.chain_id = $1 AND v.until_seq IS NULL AND v.recipient = s.recipient AND v.token = s.token
         AND v.campaign_id = s.campaign_id AND v.reason = s.reason)`,
    [chainId, seq],
  );
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
