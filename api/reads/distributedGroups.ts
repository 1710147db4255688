/**
 * The shapes of a grouped distributed read (#33), shared by the exact GROUP BY
 * (distributedRewards.ts) and the facet rollup's read (distributedFacetRollup.ts).
 */
import type { LivePositions } from '../../domain/tables/distributed.js';
import { createArgs } from '../../internal/pg.js';

export type DistributedParams = {
  chainIds: readonly number[];
  /** Unix seconds, inclusive; null: since the first root. */
  from: number | null;
  /** Unix seconds, inclusive; null: up to the live root. */
  to: number | null;
  grain: 'month' | null;
};

/**
 * The parameters every grouped read starts with: $1–$3 the live roots (chains, blocks, log indexes),
 * $4 and $5 the window, $6 the grain; the filter's follow (`add`).
 */
export function distributedArgs(live: LivePositions, p: DistributedParams) {
  return createArgs([live.chainIds, live.blocks, live.logIndexes, p.from, p.to, p.grain]);
}

/** The campaign filters PostgreSQL applies itself (the rest need Elasticsearch: loadDistributedRewards). */
export type DistributedCampaignFilter = {
  /** Compute chain (`chainId`). */
  computeChainId?: number;
  /** Campaign statuses at `now` (SOON, LIVE, PAST), any of them. */
  statuses?: readonly ('SOON' | 'LIVE' | 'PAST')[];
  now: number;
  /** `test=true`: campaigns of test reward tokens count too. */
  test: boolean;
  excludeSubCampaigns: boolean;
  /** Private campaigns the caller may see: none, all, or these internal ids. */
  visible: 'none' | 'all' | readonly string[];
};

/**
 * How a grouped read is keyed: `token`, per chain, token and month (units, USD, whether some
 * amount was unpriced: /by-tokens); `type`, per chain, month and campaign type (USD: the total,
 * /by-chains, /by-types, /by-protocols; tokens are many, types few).
 */
export type DistributedBy = 'token' | 'type';

/** What the counted campaigns distributed in one token on one chain (and month). */
export type DistributedTokenGroup = {
  chainId: number;
  token: string;
  period: string | null;
  amount: string;
  usd: number;
  unpriced: boolean;
};

/** What the counted campaigns of one type distributed on one chain (and month), in USD. */
export type DistributedTypeGroup = { chainId: number; period: string | null; campaignType: number; usd: number };

export type DistributedGroupOf<B extends DistributedBy> = B extends 'token'
  ? DistributedTokenGroup
  : DistributedTypeGroup;

/**
 * SQL: the select list of a grouped read keyed `by` (three keys, then the sums; GROUP BY 1, 2, 3),
 * over rows with columns chain_id, token, campaign_type, usd, unpriced, `amount` (the units) and
 * `period` (an expression).
 */
export function groupedColumns(by: DistributedBy, amount: string, period: string): string {
  return by === 'token'
    ? `chain_id, token, ${period} AS period, sum(${amount})::text AS amount, sum(usd)::float8 AS usd, bool_or(unpriced) AS unpriced`
    : `chain_id, ${period} AS period, campaign_type, sum(usd)::float8 AS usd`;
}

/** A group as PostgreSQL returns it (groupedColumns). */
export type GroupRow = {
  chain_id: number;
  token?: string;
  period: string | null;
  campaign_type?: number;
  amount?: string;
  usd: number;
  unpriced?: boolean;
};

/** Pure: a group row in TS form. */
export function toGroup<B extends DistributedBy>(by: B, r: GroupRow): DistributedGroupOf<B> {
  const group =
    by === 'token'
      ? { chainId: r.chain_id, token: r.token!, period: r.period, amount: r.amount!, usd: r.usd, unpriced: r.unpriced! }
      : { chainId: r.chain_id, period: r.period, campaignType: r.campaign_type!, usd: r.usd };
  return group as DistributedGroupOf<B>;
}

/**
 * What one opportunity's counted campaigns distributed, and how many of them did: by its id, or, for
 * campaigns stored without one, by what derives it (type, compute chain, main parameter).
 */
export type DistributedOpportunityGroup =
  | { opportunityId: string; usd: number; campaigns: number }
  | {
      opportunityId: null;
      campaignType: number;
      computeChainId: number;
      mainParameter: string | null;
      usd: number;
      campaigns: number;
    };

/** An opportunity group as PostgreSQL returns it. */
export type OpportunityGroupRow = {
  campaign_type: number;
  opportunity_id: string | null;
  compute_chain_id: number;
  main_parameter: string | null;
  usd: number;
  campaigns: number;
};

/** Pure: an opportunity group row in TS form. */
export function toOpportunityGroup(r: OpportunityGroupRow): DistributedOpportunityGroup {
  if (r.opportunity_id !== null) return { opportunityId: r.opportunity_id, usd: r.usd, campaigns: r.campaigns };
  return {
    opportunityId: null,
    campaignType: r.campaign_type,
    computeChainId: r.compute_chain_id,
    mainParameter: r.main_parameter,
    usd: r.usd,
    campaigns: r.campaigns,
  };
}
