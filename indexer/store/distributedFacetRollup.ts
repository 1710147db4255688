import {
  CAMPAIGN_JOIN,
  CAMPAIGN_ROWS,
  loadLivePositions,
  PRICED,
  rollupFreshSql,
  usdOf,
  withLiveRoot,
} from '../../domain/tables/distributed.js';
import type { PgPool } from '../../internal/pg.js';

/**
 * The facet rollup's rows: PRICED over every counted root (no window, no grain) joined to its
 * campaigns as the exact read joins them (CAMPAIGN_ROWS, CAMPAIGN_JOIN), summed per root and facets
 * the campaign filters of the PostgreSQL path test (compute chain, test reward token, sub-campaign,
 * and a private campaign's own id). Per root, so any window of roots is a sum of rows; the USD
 * of each change is the exact read's (usdOf), summed in another order.
 */
const INSERT_ROLLUP = `
  INSERT INTO distributed_facet_rollup (chain_id, timestamp, month, token, campaign_type, compute_chain_id, is_test,
    is_sub_campaign, private_campaign_db_id, amount, usd, unpriced)
  WITH ${PRICED}${CAMPAIGN_ROWS}
  SELECT x.chain_id, x.timestamp, to_char(to_timestamp(x.timestamp) AT TIME ZONE 'UTC', 'YYYY-MM'), x.token,
    cc.campaign_type, cc.compute_chain_id, rt.chain_id IS NOT NULL, cc.parent_campaign_id IS NOT NULL,
    CASE WHEN coalesce(pv.is_private, false) THEN cc.id END,
    sum(x.delta), coalesce(sum(${usdOf('x')}), 0)::float8, bool_or(x.price IS NULL)
  FROM priced x
  ${CAMPAIGN_JOIN}
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9`;

/** The token-less rollup of the USD routes, from the facet rollup (same facets but the token). */
const INSERT_TYPE_ROLLUP = `
  INSERT INTO distributed_type_rollup (chain_id, timestamp, month, campaign_type, compute_chain_id, is_test,
    is_sub_campaign, private_campaign_db_id, usd)
  SELECT chain_id, timestamp, month, campaign_type, compute_chain_id, is_test, is_sub_campaign, private_campaign_db_id, sum(usd)
  FROM distributed_facet_rollup GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`;

export type WriteDistributedRollupResult = {
  /** Rows of distributed_facet_rollup written. */
  rows: number;
  /** Dirty markers cleared (writes since the previous rebuild). */
  markers: number;
  /** Chains with a live root the rollup was built for. */
  liveChains: number;
};

/**
 * Rebuilds the facet rollups of `chainIds` whole (distributed_facet_rollup, then distributed_type_rollup
 * from it) in one REPEATABLE READ transaction: the live roots, the rows and the markers it clears all
 * come from one snapshot, so a write committing meanwhile
 * keeps its marker (and the rollup stays unused until the next rebuild). INSERT … SELECT: no row
 * passes through the process. Readers see the previous rollup until the commit.
 * Tables distributed_facet_rollup, distributed_type_rollup, distributed_rollup_state, distributed_rollup_dirty (written);
 * roots, reward_trees, reward_campaign_deltas, campaigns, campaign_overrides, campaign_privacy,
 * tokens, token_price_history, distributor_events, cursors, blocks (read).
 */
export async function writeDistributedRollup(
  pool: PgPool,
  chainIds: readonly number[],
): Promise<WriteDistributedRollupResult> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ WRITE');
    const positions = await loadLivePositions(client, chainIds);
    const live = withLiveRoot(positions);
    await client.query('DELETE FROM distributed_facet_rollup');
    await client.query('DELETE FROM distributed_type_rollup');
    const inserted = await client.query(INSERT_ROLLUP, [live.chainIds, live.blocks, live.logIndexes, null, null, null]);
    await client.query(INSERT_TYPE_ROLLUP);
    await client.query('DELETE FROM distributed_rollup_state');
    await client.query(
      `INSERT INTO distributed_rollup_state (chain_id, block_number, log_index)
       SELECT * FROM unnest($1::int[], $2::bigint[], $3::int[])`,
      [positions.chainIds, positions.blocks, positions.logIndexes],
    );
    const cleared = await client.query('DELETE FROM distributed_rollup_dirty');
    await client.query('COMMIT');
    return { rows: inserted.rowCount ?? 0, markers: cleared.rowCount ?? 0, liveChains: live.chainIds.length };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Whether the facet rollup is fresh for every one of `chainIds`: no write since its rebuild, and
 * built for each chain's current live root (or its lack of one).
 */
export async function isDistributedRollupFresh(db: PgPool, chainIds: readonly number[]): Promise<boolean> {
  const positions = await loadLivePositions(db, chainIds);
  const { rows } = await db.query<{ fresh: boolean }>(`SELECT ${rollupFreshSql(1)} AS fresh`, [
    positions.chainIds,
    positions.blocks,
    positions.logIndexes,
  ]);
  return rows[0]?.fresh === true;
}
