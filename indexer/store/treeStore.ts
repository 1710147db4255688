import { type PgClient, type PgPool, withTransaction } from '../../internal/pg.js';
import {
  CHANGED_LEAVES_COLUMNS,
  fillChangedLeaves,
  type RecipientShare,
  storeBreakdownVersions,
  storeLeafVersions,
} from './rewardTrees.js';
import { storeTreeUnclaimed } from './rewardUnclaimed.js';
import { STAGED_LEAVES_COLUMNS } from './stageRewardTree.js';
import {
  discardStore,
  lockTreeStores,
  repairInterruptedStores,
  stagingTables,
  unlockTreeStores,
} from './treeStoreRepair.js';

/**
 * The recipients whose breakdowns the tree's own connection stores, after the leaves; the second
 * connection stores the others' and the totals. On a first root of a million leaves with 1.5
 * breakdowns each (bench:rewards, PostgreSQL's statement log), with 3/8 here the second connection
 * ended 5 s before the first: 5/16 (addresses 0x0… to 0x4…) ends both near the same time.
 */
const FIRST: RecipientShare = { from: 0, to: 5 };
const SECOND: RecipientShare = { from: 5, to: 16 };

/** A tree being stored by treeStore: staged through `client`, then stored by `commit`. */
export type TreeStore = {
  /** The seq the tree gets if it commits. */
  readonly seq: string;
  /** The store's own connection (autocommit until `commit`): stage and verify on it. */
  readonly client: PgClient;
  /** Where to stage the entries (stageRewardTree.ts openTreeStage), a table both connections read. */
  readonly staged: string;
  /** Where to stage a Merkl document's rows before they are summed into entries (stageExpandedRows.ts; created there). */
  readonly expanded: string;
  /**
   * Stores the staged entries as tree `root` of the chain, by change against the chain's latest
   * stored tree, from two connections at once (above). `finish` runs in the tree's transaction
   * just before it commits (the verified mark, the proof material); `phase` is told when each step
   * ends (the job logs where the time of a root goes).
   */
  commit(finish: (tx: PgClient) => Promise<void>, phase?: (name: string) => void): Promise<void>;
  /**
   * Ends the store: unless it committed, undoes what it wrote; drops its staging. Never throws: what
   * it could not do (the connection broke) it returns, and the next store of the chain does it.
   */
  close(): Promise<Error | undefined>;
};

/**
 * Opens the store of tree `root` of `chainId`: one at a time per chain (lockTreeStores, for the
 * session: the store spans several transactions), after undoing what interrupted stores of the chain
 * left (treeStoreRepair.ts), marked in reward_tree_stores with the seq it will give the tree, and
 * with an unlogged staging table. Why two connections: PostgreSQL inserts a statement's rows on
 * one core, and a first root of a million leaves spends ~45 s inserting versions into their
 * indexes; split, both cores share it. The price: the second connection's share of the breakdowns
 * commits just before the tree does, so a store that dies between the two leaves rows of a seq no
 * tree has (invisible: every read names a stored tree's seq) until `close` or the next store of
 * the chain undoes them.
 */
export async function openTreeStore(pool: PgPool, chainId: number, root: string): Promise<TreeStore> {
  const client = await pool.connect();
  // The store holds its connection for the whole tree: if it breaks (PostgreSQL restarted, the
  // backend terminated), its queries reject and the store is undone later; the client's 'error'
  // event must not go unhandled meanwhile (it would end the process).
  const onError = () => {};
  client.on('error', onError);
  let seq: string;
  try {
    await lockTreeStores(client, chainId, 'session');
    await repairInterruptedStores(client, chainId);
    const { rows } = await client.query<{ seq: string }>(
      `INSERT INTO reward_tree_stores (seq, chain_id, root) VALUES (nextval('reward_tree_seq'), $1, $2)
       RETURNING seq::text AS seq`,
      [chainId, root.toLowerCase()],
    );
    seq = rows[0]!.seq;
    // Dropped first: a database whose public schema was reset starts seqs again (reward_staging stays).
    const { staged, changed, expanded } = stagingTables(seq);
    await client.query(`DROP TABLE IF EXISTS ${staged}, ${changed}, ${expanded}`);
    await client.query(`CREATE UNLOGGED TABLE ${staged} (${STAGED_LEAVES_COLUMNS})`);
  } catch (error) {
    await unlockTreeStores(client, chainId).catch(() => {});
    client.off('error', onError);
    client.release(error instanceof Error ? error : true);
    throw error;
  }
  const { staged, changed, expanded } = stagingTables(seq);
  let committed = false;
  // Whether the second connection may have committed rows: only then is there anything to undo.
  let wrote = false;
  return {
    seq,
    client,
    staged,
    expanded,
    async commit(finish, phase = () => {}) {
      await client.query(`CREATE UNLOGGED TABLE ${changed} (${CHANGED_LEAVES_COLUMNS})`);
      await fillChangedLeaves(client, chainId, staged, changed);
      phase('compared with the open versions');
      wrote = true;
      const second = withTransaction(pool, async (tx) => {
        // Nothing else writes what it writes (one store per chain at a time), so a lock wait here is
        // the tree's own connection holding something: fail it (and the tree) rather than wait forever.
        await tx.query("SET LOCAL lock_timeout = '60s'");
        await storeBreakdownVersions(tx, { chainId, seq, changed, share: SECOND, totals: true });
      });
      // Awaited below; this keeps an early failure from counting as unhandled meanwhile.
      second.catch(() => {});
      try {
        await client.query('BEGIN READ WRITE');
        await storeLeafVersions(client, chainId, seq, changed);
        phase('leaf versions stored');
        await storeBreakdownVersions(client, { chainId, seq, changed, share: FIRST, totals: false });
        phase('breakdown versions stored (first connection)');
        await second;
        phase('waited for the second connection (totals, breakdown versions)');
        await client.query('UPDATE reward_trees SET seq = $3 WHERE chain_id = $1 AND root = $2', [
          chainId,
          root.toLowerCase(),
          seq,
        ]);
        await storeTreeUnclaimed(client, chainId, seq, changed);
        phase('unclaimed amounts stored');
        await finish(client);
        await client.query('DELETE FROM reward_tree_stores WHERE seq = $1', [seq]);
        await client.query('COMMIT');
        committed = true;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        await second.catch(() => {});
        throw error;
      }
    },
    async close() {
      let broken: Error | undefined;
      try {
        // Committed (the mark went with it) or never past staging, only the staging and the mark are left.
        if (!committed && wrote) await repairInterruptedStores(client, chainId, seq);
        else await discardStore(client, seq);
        await unlockTreeStores(client, chainId);
      } catch (error) {
        // The next store of the chain repairs it (the connection is dropped: its lock goes with it).
        broken = error instanceof Error ? error : new Error(String(error));
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
      return broken;
    },
  };
}
