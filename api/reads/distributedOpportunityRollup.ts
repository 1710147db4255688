import type { LivePositions } from '../../domain/tables/distributed.js';
import { createArgs, type PgClient, type PgPool } from '../../internal/pg.js';
import { queryWhenFresh, rollupFilterSql } from './distributedFacetRollup.js';
import {
  toOpportunityGroup,
  type DistributedCampaignFilter,
  type DistributedOpportunityGroup,
  type DistributedParams,
  type OpportunityGroupRow,
} from './distributedGroups.js';

/**
 * SQL (parameters $1, $4, $5: live chains, from, to): whether the window holds every root of the
 * opportunity rollup on these chains, so that the all-roots total (distributed_opportunity_total)
 * answers it. Index range checks on (chain_id, timestamp).
 */
const COVERS = `(($4::bigint IS NULL OR NOT EXISTS (SELECT 1 FROM distributed_opportunity_rollup
    WHERE chain_id = ANY($1::int[]) AND timestamp < $4))
  AND ($5::bigint IS NULL OR NOT EXISTS (SELECT 1 FROM distributed_opportunity_rollup
    WHERE chain_id = ANY($1::int[]) AND timestamp > $5)))`;

/**
 * SQL (parameters $1: live chains; `limit`: the top's size): whether the ranked totals answer: the
 * window holds every root (COVERS), the chains read are every chain the rollups were built with a live
 * root for, and every public campaign has an opportunity id. The filter must be the defaults (checked
 * by the caller: no test tokens, no compute chain, sub-campaigns included, no status).
 */
const RANKED = `(${COVERS} AND NOT EXISTS (SELECT 1 FROM distributed_rollup_state s
    WHERE s.block_number IS NOT NULL AND s.chain_id <> ALL($1::int[]))
  AND NOT EXISTS (SELECT 1 FROM distributed_opportunity_rank WHERE opportunity_id IS NULL))`;

/**
 * SQL of `kept`: the opportunity rows of the window under the filter's conditions (`where`), with how
 * many campaigns each counts. With the default filter (`ranked`) and RANKED: the ranked public totals
 * of the first `limit` + 1 opportunities and as many more as the caller's visible private campaigns
 * have opportunities (at least `limit` + 1 of them gain nothing, so no opportunity further down can
 * pass them), the ranked totals of those private campaigns' opportunities, and the private rows.
 * Else a window holding every root reads the all-roots totals, and another the per-root rows, a
 * campaign counted at its first change inside the window (no earlier change, or one before `from`).
 */
function keptSql(where: string[], ranked: { limit: string } | null): string {
  const cond = ['chain_id = ANY($1::int[])', ...where].join(' AND ');
  const columns = 'opportunity_id, campaign_type, compute_chain_id, main_parameter, usd, campaigns';
  const general = (rank: string) => `
    SELECT ${columns} FROM distributed_opportunity_total WHERE NOT ${rank} AND ${COVERS} AND ${cond}
    UNION ALL
    SELECT opportunity_id, campaign_type, compute_chain_id, main_parameter, usd,
      CASE WHEN prev_timestamp IS NULL OR prev_timestamp < $4 THEN campaigns ELSE 0 END
    FROM distributed_opportunity_rollup
    WHERE NOT ${COVERS} AND ($4::bigint IS NULL OR timestamp >= $4) AND ($5::bigint IS NULL OR timestamp <= $5)
      AND ${cond}`;
  if (!ranked)
    return `kept AS (${general('false')}
  )`;
  const ranks = 'opportunity_id, 0, 0, NULL, usd, campaigns';
  return `private AS (
    SELECT ${columns} FROM distributed_opportunity_total WHERE private_campaign_db_id IS NOT NULL AND ${cond}
  ), rank_top AS (
    SELECT opportunity_id, usd, campaigns FROM distributed_opportunity_rank ORDER BY usd DESC, opportunity_id COLLATE "C"
    LIMIT ${ranked.limit}::int + 1 + (SELECT count(DISTINCT opportunity_id) FROM private)
  ), kept AS (
    SELECT ${ranks} FROM rank_top WHERE ${RANKED}
    UNION ALL
    SELECT ${ranks} FROM distributed_opportunity_rank WHERE ${RANKED}
      AND opportunity_id IN (SELECT opportunity_id FROM private) AND opportunity_id NOT IN (SELECT opportunity_id FROM rank_top)
    UNION ALL
    SELECT ${columns} FROM private WHERE ${RANKED}
    UNION ALL${general(RANKED)}
  )`;
}

/** Pure: whether the filter is the defaults the ranked totals hold (any visibility: private rows are added). */
function isDefaultFilter(f: DistributedCampaignFilter): boolean {
  return !f.test && !f.excludeSubCampaigns && f.computeChainId === undefined && f.statuses === undefined;
}

/**
 * Per opportunity, USD and the campaigns that distributed over the window under the filter, from the
 * opportunity rollups (distributed_opportunity_rollup, distributed_opportunity_total;
 * sql/migrations/2026_12_04_06_distributed_status_opportunity_rollup.sql), checked fresh in the same
 * statement as loadRolledUpGroups is. The `items` largest by USD (ties by id, as the route sorts them),
 * grouped and cut in PostgreSQL (with the default filter over a window holding every root, from the
 * ranked public totals, distributed_opportunity_rank: `items` rows by its index); when some campaign
 * has no opportunity id (its id is derived in the process), every group instead, keyed as the exact
 * read keys them.
 * @returns the groups, or null when the rollup is stale: the caller answers exactly.
 */
export async function loadRolledUpOpportunityGroups(
  db: PgPool | PgClient,
  live: LivePositions,
  p: DistributedParams,
  f: DistributedCampaignFilter,
  items: number,
): Promise<DistributedOpportunityGroup[] | null> {
  // No grain ($6): these reads sum the whole window.
  const args = createArgs([live.chainIds, live.blocks, live.logIndexes, p.from, p.to]);
  const filter = rollupFilterSql(f, args.add);
  const limit = args.add(items);
  const ranked = isDefaultFilter(f) ? { limit } : null;
  // The group of the campaigns without an opportunity id sorts first: present, every group is read instead.
  const top = await queryWhenFresh<OpportunityGroupRow>(
    db,
    {
      ctes: keptSql(filter.where, ranked),
      fresh: filter.fresh,
      groups: `SELECT 0 AS campaign_type, opportunity_id, 0 AS compute_chain_id, NULL AS main_parameter,
         sum(usd)::float8 AS usd, sum(campaigns)::int AS campaigns
       FROM kept WHERE f.fresh GROUP BY opportunity_id
       ORDER BY opportunity_id IS NULL DESC, 5 DESC, opportunity_id COLLATE "C" LIMIT ${limit}::int + 1`,
      present: 'usd',
    },
    args.values,
  );
  if (top === null) return null;
  if (!top.length || top[0]!.opportunity_id !== null) return top.map(toOpportunityGroup);
  const all = await queryWhenFresh<OpportunityGroupRow>(
    db,
    {
      ctes: keptSql(filter.where, null),
      fresh: filter.fresh,
      groups: `SELECT campaign_type, opportunity_id, compute_chain_id, main_parameter, sum(usd)::float8 AS usd,
         sum(campaigns)::int AS campaigns
       FROM kept WHERE f.fresh GROUP BY 1, 2, 3, 4`,
      present: 'usd',
    },
    args.values.slice(0, -1), // without `limit`, the last one
  );
  return all === null ? null : all.map(toOpportunityGroup);
}
