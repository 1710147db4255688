import {
  loadLivePositions,
  rollupClock,
  rollupClockDue,
  noteDistributedSql,
  rollupFreshSql,
  withLiveRoot,
} from '../../domain/tables/distributed.js';
import type { PgPool } from '../../internal/pg.js';
import {
  CREATE_BASE,
  INSERT_BASE,
  INSERT_FACET,
  INSERT_OPPORTUNITY,
  INSERT_OPPORTUNITY_RANK,
  INSERT_OPPORTUNITY_TOTAL,
  INSERT_STATUS,
  INSERT_STATUS_TYPE,
  INSERT_TYPE,
  ROLLUP_TABLES,
} from './distributedRollupInserts.js';

/** The wall clock in Unix seconds: the API's `now` (api/deps.ts nowSeconds) when none is injected. */
const wallClock = () => Math.floor(Date.now() / 1000);

export type WriteDistributedRollupResult = {
  /** Rows of distributed_facet_rollup written. */
  rows: number;
  /** Rows of distributed_status_rollup written (the facet rollup's, split by the campaigns' clamped bounds). */
  statusRows: number;
  /** Rows of distributed_opportunity_rollup written. */
  opportunityRows: number;
  /** Dirty markers cleared (writes since the previous rebuild). */
  markers: number;
  /** Notes of campaigns inserted since the previous rebuild, cleared (distributed_rollup_new_campaigns). */
  campaignNotes: number;
  /** Chains with a live root the rollup was built for. */
  liveChains: number;
};

/**
 * Rebuilds the `distributed` rollups of `chainIds` whole in one REPEATABLE READ transaction: one pass
 * over the counted roots into a temporary table per root and campaign (INSERT_BASE), then each rollup
 * as a GROUP BY of the one before (distributedRollupInserts.ts): distributed_status_rollup,
 * distributed_facet_rollup, distributed_type_rollup, distributed_status_type_rollup,
 * distributed_opportunity_rollup, distributed_opportunity_total, distributed_opportunity_rank. The live roots, the rows and the
 * markers it clears all come from one snapshot, so a write committing meanwhile keeps its marker (and
 * the rollups stay unused until the next rebuild). The campaigns' bounds are clamped to the horizon
 * of `now` (rollupClock, stored in distributed_rollup_clock). INSERT … SELECT: no row passes through
 * the process. Readers see the previous rollups until the commit.
 * Tables those rollups, distributed_rollup_state, distributed_rollup_dirty, distributed_rollup_new_campaigns,
 * distributed_rollup_clock (written);
 * roots, reward_trees, reward_campaign_deltas, campaigns, campaign_overrides, campaign_privacy,
 * tokens, token_price_history, distributor_events, cursors, blocks (read).
 */
export async function writeDistributedRollup(
  pool: PgPool,
  chainIds: readonly number[],
  now: number = wallClock(),
): Promise<WriteDistributedRollupResult> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ WRITE');
    const positions = await loadLivePositions(client, chainIds);
    const live = withLiveRoot(positions);
    const clock = rollupClock(now);
    for (const table of ROLLUP_TABLES) await client.query(`DELETE FROM ${table}`);
    await client.query(CREATE_BASE);
    await client.query(INSERT_BASE, [
      live.chainIds,
      live.blocks,
      live.logIndexes,
      null,
      null,
      null,
      clock.validFrom,
      clock.validUntil,
    ]);
    const status = await client.query(INSERT_STATUS);
    const facet = await client.query(INSERT_FACET);
    await client.query(INSERT_TYPE);
    await client.query(INSERT_STATUS_TYPE);
    const opportunity = await client.query(INSERT_OPPORTUNITY);
    await client.query(INSERT_OPPORTUNITY_TOTAL);
    await client.query(INSERT_OPPORTUNITY_RANK);
    await client.query('DELETE FROM distributed_rollup_clock');
    await client.query('INSERT INTO distributed_rollup_clock (valid_from, valid_until) VALUES ($1, $2)', [
      clock.validFrom,
      clock.validUntil,
    ]);
    await client.query('DELETE FROM distributed_rollup_state');
    await client.query(
      `INSERT INTO distributed_rollup_state (chain_id, block_number, log_index)
       SELECT * FROM unnest($1::int[], $2::bigint[], $3::int[])`,
      [positions.chainIds, positions.blocks, positions.logIndexes],
    );
    const cleared = await client.query('DELETE FROM distributed_rollup_dirty');
    const noted = await client.query('DELETE FROM distributed_rollup_new_campaigns');
    await client.query('COMMIT');
    return {
      rows: facet.rowCount ?? 0,
      statusRows: status.rowCount ?? 0,
      opportunityRows: opportunity.rowCount ?? 0,
      markers: cleared.rowCount ?? 0,
      campaignNotes: noted.rowCount ?? 0,
      liveChains: live.chainIds.length,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Drops the notes of inserted campaigns that no delta names (they change no figure; a delta naming one
 * later comes with its own dirty marker): safe in any snapshot, see
 * sql/migrations/2026_12_06_01_distributed_rollup_new_campaigns.sql. Keeps the notes, which every read
 * checks, as few as the campaigns inserted since the job's last run. Returns how many were dropped.
 * Tables distributed_rollup_new_campaigns (written); campaigns, reward_campaign_deltas (read).
 */
export async function dropUndistributedCampaignNotes(pool: PgPool): Promise<number> {
  const { rowCount } = await pool.query(
    `DELETE FROM distributed_rollup_new_campaigns n WHERE NOT EXISTS (${noteDistributedSql('n')})`,
  );
  return rowCount ?? 0;
}

/**
 * Whether the rollups are fresh for every one of `chainIds` at `now`: no write since their rebuild,
 * built for each chain's current live root (or its lack of one), and less than half of their status
 * horizon gone (rollupClockDue).
 */
export async function isDistributedRollupFresh(
  db: PgPool,
  chainIds: readonly number[],
  now: number = wallClock(),
): Promise<boolean> {
  const positions = await loadLivePositions(db, chainIds);
  const { rows } = await db.query<{ fresh: boolean; valid_from: string | null; valid_until: string | null }>(
    `SELECT ${rollupFreshSql(1)} AS fresh, c.valid_from::text, c.valid_until::text
     FROM (SELECT 1) one LEFT JOIN distributed_rollup_clock c ON true`,
    [positions.chainIds, positions.blocks, positions.logIndexes],
  );
  const r = rows[0];
  if (r?.fresh !== true) return false;
  const clock = r.valid_from === null ? null : { validFrom: Number(r.valid_from), validUntil: Number(r.valid_until) };
  return !rollupClockDue(clock, now);
}
