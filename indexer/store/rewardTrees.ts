import type { PgClient, PgPool } from '../../internal/pg.js';
import { redactStored } from '../../internal/redact.js';
import type { RewardTreeStatus } from '../../domain/rewardTree.js';
import { storeTreeTotals } from './rewardTotals.js';
import { storeTreeUnclaimed } from './rewardUnclaimed.js';
import { emptyTempTable } from './tempTables.js';
import { lockTreeStores, repairInterruptedStores } from './treeStoreRepair.js';

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

/** (recipient, token) pairs staged more than once in `staged` (at most `limit`, named `recipient-token`). */
export async function stagedDuplicates(client: PgClient, staged: string, limit = 6): Promise<string[]> {
  const { rows } = await client.query<{ key: string }>(
    `SELECT recipient || '-' || token AS key FROM ${staged} GROUP BY recipient, token HAVING count(*) > 1
     ORDER BY 1 LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.key);
}

/** Columns of a changed-leaves table (fillChangedLeaves). */
export const CHANGED_LEAVES_COLUMNS =
  'recipient text NOT NULL, token text NOT NULL, amount numeric(78, 0), digest bytea, breakdowns text, was_open boolean NOT NULL, old_amount numeric(78, 0)';

/**
 * The leaves of `staged` (a table of staged entries, stageRewardTree.ts) that differ from the open
 * versions of `chainId` (the latest stored tree), into `changed` (created and empty): staged and not
 * open (new), open and not staged (gone, amount null), or both with other digests
 * (2026_11_29_01_reward_leaf_digest.sql): one join on their digests.
 */
export async function fillChangedLeaves(client: PgClient, chainId: number, staged: string, changed: string) {
  await client.query(`ANALYZE ${staged}`);
  await client.query(
    `INSERT INTO ${changed}
     SELECT coalesce(s.recipient, v.recipient), coalesce(s.token, v.token), s.amount, s.digest, s.breakdowns, v.recipient IS NOT NULL, v.amount
     FROM ${staged} s
     FULL JOIN (SELECT recipient, token, digest, amount FROM reward_leaf_versions WHERE chain_id = $1 AND until_seq IS NULL) v
       ON v.recipient = s.recipient AND v.token = s.token
     WHERE s.recipient IS NULL OR v.recipient IS NULL OR v.digest IS DISTINCT FROM s.digest`,
    [chainId],
  );
  await client.query(`ANALYZE ${changed}`);
}

/** The leaf versions of tree `seq`: the changed leaves' open versions closed at `seq` and opened anew. */
export async function storeLeafVersions(client: PgClient, chainId: number, seq: string, changed: string) {
  await client.query(
    `UPDATE reward_leaf_versions v SET until_seq = $2 FROM ${changed} c
     WHERE c.was_open AND v.chain_id = $1 AND v.until_seq IS NULL AND v.recipient = c.recipient AND v.token = c.token`,
    [chainId, seq],
  );
  const leaves = await client.query(
    `INSERT INTO reward_leaf_versions (chain_id, recipient, token, amount, digest, since_seq)
     SELECT $1, recipient, token, amount, digest, $2 FROM ${changed} WHERE amount IS NOT NULL
     ORDER BY recipient, token`,
    [chainId, seq],
  );
  await analyzeIfStale(client, 'reward_leaf_versions', chainId, leaves.rowCount ?? 0);
}

/**
 * A share of the recipients: those whose address's first hex digit is in `[from, to)` (addresses are
 * hashes, so digits share them evenly). Two connections store the breakdowns of complementary shares
 * at once (treeStore.ts): ranges of the address, not a hash of it, so that the two insert into other
 * pages of the indexes ordered by recipient (a hash split measured 23 s where ranges took 19 s for the
 * 1.5M breakdowns of a first 1M root). The whole is [0, 16).
 */
export type RecipientShare = { from: number; to: number };
export const ALL_RECIPIENTS: RecipientShare = { from: 0, to: 16 };
const HEX = '0123456789abcdef';
const inShare = (alias: string, { from, to }: RecipientShare) => {
  if (from === 0 && to === 16) return 'true';
  const digit = `lower(substr(${alias}.recipient, 3, 1)) COLLATE "C"`;
  const bounds = [from > 0 ? `${digit} >= '${HEX[from]}'` : '', to < 16 ? `${digit} < '${HEX[to]}'` : ''];
  return `(${bounds.filter(Boolean).join(' AND ')})`;
};

/**
 * The breakdown versions of tree `seq` for the changed leaves of `share`: the changed leaves'
 * breakdowns are compared one by one with their open versions (a breakdown that did not change stays
 * open). With `totals`, first the tree's per-token and per-campaign totals from every changed leaf
 * (rewardTotals.ts, which reads the open breakdowns as they were: so before any share is closed),
 * and the table's statistics after (analyzeIfStale).
 */
export async function storeBreakdownVersions(
  client: PgClient,
  {
    chainId,
    seq,
    changed,
    share,
    totals,
  }: { chainId: number; seq: string; changed: string; share: RecipientShare; totals: boolean },
) {
  // The changed leaves' breakdowns, expanded from their JSON into a table of their own so that both
  // comparisons below are planned as hash joins (as a CTE, its NOT EXISTS ran once per breakdown).
  // The totals need every changed leaf's; otherwise the share's alone.
  await emptyTempTable(
    client,
    'changed_breakdowns',
    'recipient text NOT NULL, token text NOT NULL, campaign_id text NOT NULL, reason text NOT NULL, amount numeric(78, 0) NOT NULL, was_open boolean NOT NULL',
  );
  await client.query(
    `INSERT INTO changed_breakdowns
     SELECT c.recipient, c.token, e->>0, e->>1, (e->>2)::numeric, c.was_open
     FROM ${changed} c, jsonb_array_elements(c.breakdowns::jsonb) e
     WHERE c.breakdowns IS NOT NULL AND ${totals ? 'true' : inShare('c', share)}`,
  );
  await client.query('ANALYZE changed_breakdowns');
  if (totals) await storeTreeTotals(client, chainId, seq, changed);
  await client.query(
    `UPDATE reward_breakdown_versions b SET until_seq = $2 FROM ${changed} c
     WHERE c.was_open AND ${inShare('c', share)} AND b.chain_id = $1 AND b.until_seq IS NULL AND b.recipient = c.recipient AND b.token = c.token
       AND NOT EXISTS (SELECT 1 FROM changed_breakdowns f WHERE f.recipient = b.recipient AND f.token = b.token
         AND f.campaign_id = b.campaign_id AND f.reason = b.reason AND f.amount = b.amount)`,
    [chainId, seq],
  );
  const breakdowns = await client.query(
    `INSERT INTO reward_breakdown_versions (chain_id, recipient, token, campaign_id, reason, amount, since_seq)
     SELECT $1, f.recipient, f.token, f.campaign_id, f.reason, f.amount, $2 FROM changed_breakdowns f
     -- A leaf that was not open has no open breakdown (a first root: no lookup at all).
     WHERE ${inShare('f', share)} AND (NOT f.was_open OR NOT EXISTS (SELECT 1 FROM reward_breakdown_versions b
       WHERE b.chain_id = $1 AND b.until_seq IS NULL AND b.recipient = f.recipient AND b.token = f.token
         AND b.campaign_id = f.campaign_id AND b.reason = f.reason))
     ORDER BY f.recipient, f.token, f.campaign_id, f.reason`,
    [chainId, seq],
  );
  // ANALYZE takes a lock that conflicts with itself until the transaction ends: of two connections
  // storing one tree, only the one with the totals analyzes (the other waits for it to commit).
  if (totals) await analyzeIfStale(client, 'reward_breakdown_versions', chainId, breakdowns.rowCount ?? 0);
}

/**
 * Inside the caller's transaction: the staged entries (stageRewardTree.ts, temp table staged_leaves)
 * become the amounts of the tree `root` of `chainId`, stored by change
 * (sql/migrations/2026_11_28_01_reward_versions.sql): the tree gets the next seq (a tree stored again
 * gets a new one), and its leaves are compared with the open versions of the chain (fillChangedLeaves).
 * Only the leaves that changed, appeared or went are touched: their leaf versions are closed at this
 * seq and opened anew, and their breakdowns are compared one by one. So a root costs one pass over
 * its leaves plus what changed; the tree's per-campaign and per-token totals are written from the
 * same changed leaves (rewardTotals.ts), and so are its unclaimed amounts per campaign
 * (rewardUnclaimed.ts). One connection: trees held in memory (storeTreeEntries); the roots job
 * stores a document from two at once (treeStore.ts). A store interrupted there is repaired first.
 * Tables reward_trees, reward_leaf_versions, reward_breakdown_versions, reward_campaign_totals,
 * reward_token_totals, reward_campaign_unclaimed, reward_unclaimed_trees.
 */
export async function storeStagedTree(client: PgClient, chainId: number, root: string): Promise<void> {
  await lockTreeStores(client, chainId, 'transaction');
  await repairInterruptedStores(client, chainId);
  const { rows } = await client.query<{ seq: string }>(
    `UPDATE reward_trees SET seq = nextval('reward_tree_seq') WHERE chain_id = $1 AND root = $2 RETURNING seq`,
    [chainId, root.toLowerCase()],
  );
  const seq = rows[0]!.seq;
  await emptyTempTable(client, 'changed_leaves', CHANGED_LEAVES_COLUMNS);
  await fillChangedLeaves(client, chainId, 'staged_leaves', 'changed_leaves');
  await storeBreakdownVersions(client, {
    chainId,
    seq,
    changed: 'changed_leaves',
    share: ALL_RECIPIENTS,
    totals: true,
  });
  await storeLeafVersions(client, chainId, seq, 'changed_leaves');
  await storeTreeUnclaimed(client, chainId, seq, 'changed_leaves');
}

/** Rows a store must insert for a chain its table's statistics have not seen to be analyzed. */
const UNSEEN_CHAIN_ROWS = 1_000;

/**
 * ANALYZE `table` when its statistics would plan the next comparisons as nested loops:
 * - never analyzed: planned from a guess (a root of 3,000 leaves took 2–3 s instead of 0.3 s);
 * - `chainId` absent from the statistics' common chain ids while this store inserted 1,000 rows or
 *   more: a chain the statistics have not seen is estimated at one row however many it holds (the
 *   second chain of a database, or a new chain beside big ones, which autovacuum's 10 % threshold
 *   leaves unseen for long; its 3,000-leaf trees took 2–4 s, reads of them 4 s);
 * - 10,000 rows or more inserted, a tenth or more of what the statistics say it holds: after a first
 *   root of a million leaves the statistics still said "empty" until autovacuum got to it, and the
 *   next root took 95 s instead of 1 s.
 * Otherwise the planner scales the statistics' row count with the table's pages. Inside the storing
 * transaction, so the rows it inserted are counted.
 */
async function analyzeIfStale(
  client: PgClient,
  table: 'reward_leaf_versions' | 'reward_breakdown_versions',
  chainId: number,
  inserted: number,
) {
  const { rows } = await client.query<{ reltuples: number; unseen: boolean }>(
    `SELECT c.reltuples, coalesce(NOT $2 = ANY (s.most_common_vals::text::int[]), false) AS unseen FROM pg_class c
     LEFT JOIN pg_stats s ON s.schemaname = 'public' AND s.tablename = c.relname AND s.attname = 'chain_id'
     WHERE c.oid = $1::regclass`,
    [table, chainId],
  );
  const { reltuples = -1, unseen = false } = rows[0] ?? {};
  if (reltuples < 0 || (unseen && inserted >= UNSEEN_CHAIN_ROWS) || (inserted >= 10_000 && inserted >= 0.1 * reltuples))
    await client.query(`ANALYZE ${table}`);
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
