/**
 * The shapes of a grouped distributed read (#33), shared by the exact GROUP BY
 * (distributedRewards.ts) and the facet rollup's read (distributedFacetRollup.ts).
 */

export type DistributedParams = {
  chainIds: readonly number[];
  /** Unix seconds, inclusive; null: since the first root. */
  from: number | null;
  /** Unix seconds, inclusive; null: up to the live root. */
  to: number | null;
  grain: 'month' | null;
};

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

/** One group of what the counted campaigns distributed: by chain, token, month and campaign type. */
export type DistributedGroup = {
  chainId: number;
  token: string;
  period: string | null;
  campaignType: number;
  amount: string;
  usd: number;
  unpriced: boolean;
};

/** A group as PostgreSQL returns it. */
export type GroupRow = {
  chain_id: number;
  token: string;
  period: string | null;
  campaign_type: number;
  amount: string;
  usd: number;
  unpriced: boolean;
};

/** Pure: a group row in TS form. */
export function toGroup(r: GroupRow): DistributedGroup {
  return {
    chainId: r.chain_id,
    token: r.token,
    period: r.period,
    campaignType: r.campaign_type,
    amount: r.amount,
    usd: r.usd,
    unpriced: r.unpriced,
  };
}

/** The sums of a group of `per_campaign` rows (USD: amounts of unpriced roots count 0). */
export const SUMS = 'sum(delta)::text AS amount, sum(usd)::float8 AS usd, bool_or(unpriced) AS unpriced';
