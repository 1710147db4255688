import type { PgClient } from '../../internal/pg.js';

/** Namespace of the advisory lock that serializes the stores of one chain's trees ("tre"). */
const TREE_STORE_LOCK_NAMESPACE = 0x747265;

/**
 * Takes the lock under which one tree of `chainId` is stored at a time: for the `transaction`
 * (storeStagedTree), or for the `session` (treeStore.ts, whose store spans several transactions;
 * released by unlockTreeStores or when the connection ends, a killed process included).
 */
export async function lockTreeStores(client: PgClient, chainId: number, scope: 'session' | 'transaction') {
  const fn = scope === 'session' ? 'pg_advisory_lock' : 'pg_advisory_xact_lock';
  await client.query(`SELECT ${fn}($1, $2)`, [TREE_STORE_LOCK_NAMESPACE, chainId]);
}

export async function unlockTreeStores(client: PgClient, chainId: number) {
  await client.query('SELECT pg_advisory_unlock($1, $2)', [TREE_STORE_LOCK_NAMESPACE, chainId]);
}

/** Tables a store writes rows of its seq to (`seq` column), besides the versions. */
const ROWS_BY_SEQ = [
  'reward_token_totals',
  'reward_campaign_totals',
  'reward_campaign_deltas',
  'reward_breakdown_totals',
  'reward_campaign_unclaimed',
  'reward_unclaimed_trees',
];
const VERSIONS = ['reward_leaf_versions', 'reward_breakdown_versions'];

/**
 * The staging tables of store `seq` (schema reward_staging, 2026_12_04_05_reward_tree_stores.sql):
 * the leaves staged, the leaves changed, and the rows of a Merkl document before they are summed into
 * leaves (stageExpandedRows.ts).
 */
export const stagingTables = (seq: string) => ({
  staged: `reward_staging.staged_leaves_${seq}`,
  changed: `reward_staging.changed_leaves_${seq}`,
  expanded: `reward_staging.expanded_rows_${seq}`,
});

/**
 * Undoes what stores of `chainId` that never committed left behind (reward_tree_stores rows: a store
 * from two connections commits the breakdowns' share before the tree, treeStore.ts): their versions
 * are deleted and the versions they closed reopened, their rows by seq deleted, their staging tables
 * dropped, their marks removed. Their seq was never given to a tree, so until now no read could see
 * those rows (reads name a stored tree's seq, and every stored tree's is lower); repaired before the
 * next tree of the chain gets a higher one. A pass over the chain's versions (no index by seq):
 * seconds at a million leaves, paid only after a store died. Under lockTreeStores; in the caller's
 * transaction or autocommitted statement by statement (each step can be run again).
 * @returns the seqs repaired.
 */
export async function repairInterruptedStores(client: PgClient, chainId: number, only?: string): Promise<string[]> {
  const { rows } = await client.query<{ seq: string }>(
    'SELECT seq::text AS seq FROM reward_tree_stores WHERE chain_id = $1 AND ($2::bigint IS NULL OR seq = $2) ORDER BY seq',
    [chainId, only ?? null],
  );
  for (const { seq } of rows) {
    for (const table of VERSIONS) {
      await client.query(`DELETE FROM ${table} WHERE chain_id = $1 AND since_seq = $2`, [chainId, seq]);
      await client.query(`UPDATE ${table} SET until_seq = NULL WHERE chain_id = $1 AND until_seq = $2`, [chainId, seq]);
    }
    for (const table of ROWS_BY_SEQ)
      await client.query(`DELETE FROM ${table} WHERE chain_id = $1 AND seq = $2`, [chainId, seq]);
    await discardStore(client, seq);
  }
  return rows.map((r) => r.seq);
}

/** Drops the staging tables of store `seq` and its mark: all a store that wrote no rows leaves. */
export async function discardStore(client: PgClient, seq: string): Promise<void> {
  const { staged, changed, expanded } = stagingTables(seq);
  await client.query(`DROP TABLE IF EXISTS ${staged}, ${changed}, ${expanded}`);
  await client.query('DELETE FROM reward_tree_stores WHERE seq = $1', [seq]);
}
