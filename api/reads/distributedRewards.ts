import {
  CAMPAIGN_JOIN,
  CAMPAIGN_ROWS,
  loadLivePositions,
  PRICED,
  statusSql,
  withLiveRoot,
  type LivePositions,
} from '../../domain/tables/distributed.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import { loadRolledUpGroups } from './distributedFacetRollup.js';
import {
  distributedArgs,
  groupedColumns,
  toGroup,
  toOpportunityGroup,
  type DistributedBy,
  type DistributedCampaignFilter,
  type DistributedGroupOf,
  type DistributedOpportunityGroup,
  type DistributedParams,
  type GroupRow,
  type OpportunityGroupRow,
} from './distributedGroups.js';
import { loadRolledUpOpportunityGroups } from './distributedOpportunityRollup.js';

export type { DistributedBy, DistributedCampaignFilter, DistributedOpportunityGroup, DistributedParams };

type Db = PgPool | PgClient;

/** What one campaign distributed in one token (and month, with a grain) over a window. */
export type DistributedRow = {
  chainId: number;
  campaignId: string;
  token: string;
  /** `YYYY-MM` (UTC) of the roots, with `grain: 'month'`; else null. */
  period: string | null;
  /** Token units (decimal string). */
  amount: string;
  /** USD at each root's time; the amounts of roots whose token had no price then count 0. */
  usd: number;
  /** Whether some of `amount` had no price at its root's time. */
  unpriced: boolean;
};

/** Each requested chain's live root position; chains without one left out (nothing of theirs counts). */
async function liveRoots(db: Db, chainIds: readonly number[]): Promise<LivePositions> {
  return withLiveRoot(await loadLivePositions(db, chainIds));
}

/**
 * What the live roots of each chain distributed per campaign and token (and month) over a window
 * (PRICED), summed in PostgreSQL: the rows the campaign filters that only Elasticsearch knows need.
 */
export async function loadDistributedRewards(db: Db, p: DistributedParams): Promise<DistributedRow[]> {
  const live = await liveRoots(db, p.chainIds);
  if (!live.chainIds.length) return [];
  const { rows } = await db.query<{
    chain_id: number;
    campaign_id: string;
    token: string;
    period: string | null;
    amount: string;
    usd: number;
    unpriced: boolean;
  }>(
    `WITH ${PRICED} SELECT chain_id, campaign_id, token, period, delta::text AS amount, usd, unpriced FROM per_campaign`,
    [live.chainIds, live.blocks, live.logIndexes, p.from, p.to, p.grain],
  );
  return rows.map((r) => ({
    chainId: r.chain_id,
    campaignId: r.campaign_id,
    token: r.token,
    period: r.period,
    amount: r.amount,
    usd: r.usd,
    unpriced: r.unpriced,
  }));
}

/**
 * PRICED joined to the indexed campaigns (campaigns_current, as their Elasticsearch documents are
 * built: same chain and campaign id, any case) that the filter keeps, under the listing's default
 * exclusions (private unless visible: campaign_privacy; test reward tokens unless `test`).
 */
function counted(f: DistributedCampaignFilter, arg: (value: unknown) => string): string {
  const where = [
    f.test ? null : 'rt.chain_id IS NULL',
    f.excludeSubCampaigns ? 'cc.parent_campaign_id IS NULL' : null,
    f.computeChainId !== undefined ? `cc.compute_chain_id = ${arg(f.computeChainId)}` : null,
    f.visible === 'all'
      ? null
      : `NOT (coalesce(pv.is_private, false) AND cc.id <> ALL(${arg(f.visible === 'none' ? [] : [...f.visible])}::text[]))`,
  ];
  if (f.statuses) where.push(statusSql(f.statuses, arg(f.now), 'cc'));
  return `${CAMPAIGN_ROWS}, kept AS (
    SELECT x.*, cc.id AS campaign_db_id, cc.campaign_type, cc.opportunity_id, cc.compute_chain_id,
      CASE WHEN cc.opportunity_id IS NULL THEN cc.main_parameter END AS main_parameter
    FROM per_campaign x
    ${CAMPAIGN_JOIN}
    WHERE ${where.filter(Boolean).join(' AND ') || 'true'}
  )`;
}

/** Which path answered a grouped read: the facet rollup, or the exact GROUP BY (the truth). */
export type DistributedSource = 'rollup' | 'exact';

/**
 * What the live roots distributed (PRICED), grouped `by` token or campaign type (DistributedBy), for
 * the campaigns the filter keeps: from the facet rollup (loadRolledUpGroups) when it is fresh for the
 * current live roots (and, with a status filter, its horizon holds `now`), else one GROUP BY in
 * PostgreSQL (exactGroups); a few rows to the process either way.
 */
export async function loadDistributedGroups<B extends DistributedBy>(
  db: Db,
  by: B,
  p: DistributedParams,
  f: DistributedCampaignFilter,
): Promise<{ groups: DistributedGroupOf<B>[]; source: DistributedSource }> {
  const live = await liveRoots(db, p.chainIds);
  if (!live.chainIds.length) return { groups: [], source: 'exact' };
  const rolled = await loadRolledUpGroups(db, by, live, p, f);
  if (rolled) return { groups: rolled, source: 'rollup' };
  return { groups: await exactGroups(db, by, live, p, f), source: 'exact' };
}

/** The exact GROUP BY of loadDistributedGroups over PRICED and the kept campaigns (counted): the truth. */
export async function exactGroups<B extends DistributedBy>(
  db: Db,
  by: B,
  live: LivePositions,
  p: DistributedParams,
  f: DistributedCampaignFilter,
): Promise<DistributedGroupOf<B>[]> {
  const args = distributedArgs(live, p);
  const { rows } = await db.query<GroupRow>(
    `WITH ${PRICED}${counted(f, args.add)}
     SELECT ${groupedColumns(by, 'delta', 'period')} FROM kept GROUP BY 1, 2, 3`,
    args.values,
  );
  return rows.map((r) => toGroup(by, r));
}

/**
 * Per opportunity (and, for campaigns without an opportunity id, type, compute chain and main
 * parameter), USD and the number of campaigns that distributed: from the opportunity rollup
 * (loadRolledUpOpportunityGroups: at least the `items` largest, every group when some campaign has no
 * opportunity id) when it is fresh, else one exact GROUP BY over every counted campaign.
 */
export async function loadDistributedOpportunityGroups(
  db: Db,
  p: DistributedParams,
  f: DistributedCampaignFilter,
  items: number,
): Promise<{ groups: DistributedOpportunityGroup[]; source: DistributedSource }> {
  const live = await liveRoots(db, p.chainIds);
  if (!live.chainIds.length) return { groups: [], source: 'exact' };
  const rolled = await loadRolledUpOpportunityGroups(db, live, p, f, items);
  if (rolled) return { groups: rolled, source: 'rollup' };
  const args = distributedArgs(live, p);
  const { rows } = await db.query<OpportunityGroupRow>(
    `WITH ${PRICED}${counted(f, args.add)}
     SELECT campaign_type, opportunity_id, compute_chain_id, main_parameter, sum(usd)::float8 AS usd,
       count(DISTINCT campaign_db_id)::int AS campaigns
     FROM kept GROUP BY 1, 2, 3, 4`,
    args.values,
  );
  return { groups: rows.map(toOpportunityGroup), source: 'exact' };
}
