import { foldText } from '../../../domain/foldText.js';
import type { OppFilters, OpportunityStatusFilter } from './schema.js';

export type Clause = Record<string, unknown>;
/**
 * What a filter may need besides the parameters: the time, the chains flagged as test chains, and with
 * `campaignId` the opportunities of that on-chain campaign id (resolved by opportunityFilterContext).
 */
export type FilterContext = { now: number; testChainIds?: number[]; campaignOpportunityIds?: string[] };
/** One filter: a `bool.filter` clause, a `bool.must_not` clause, or nothing. */
type Part = { filter?: Clause; mustNot?: Clause } | null;

const list = (value: string | undefined): string[] =>
  value
    ? [
        ...new Set(
          value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean),
        ),
      ]
    : [];
const flat = (values: string[] | undefined): string[] => [...new Set((values ?? []).flatMap((v) => list(v)))];
const terms = (field: string, values: (string | number)[]): Part =>
  values.length ? { filter: { terms: { [field]: values } } } : null;
const lower = (values: string[]) => values.map((v) => v.toLowerCase());

const liveWindow = (now: number): Clause => ({
  nested: {
    path: 'campaignWindows',
    query: {
      bool: {
        filter: [
          { range: { 'campaignWindows.start': { lte: now } } },
          { range: { 'campaignWindows.end': { gt: now } } },
        ],
      },
    },
  },
});
const soonWindow = (now: number): Clause => ({
  nested: { path: 'campaignWindows', query: { range: { 'campaignWindows.start': { gt: now } } } },
});

/**
 * Pure: the time condition of one opportunity status at `now`, from the nested campaign windows
 * (never the stored status): LIVE = a campaign runs; SOON = none runs, one starts later; PAST = neither.
 */
export function opportunityStatusClause(status: OpportunityStatusFilter, now: number): Clause {
  if (status === 'LIVE') return liveWindow(now);
  if (status === 'SOON') return { bool: { filter: [soonWindow(now)], must_not: [liveWindow(now)] } };
  return { bool: { must_not: [liveWindow(now), soonWindow(now)] } };
}

const range = (field: string, gte?: number, lte?: number): Part =>
  gte === undefined && lte === undefined
    ? null
    : {
        filter: {
          range: { [field]: { ...(gte === undefined ? {} : { gte }), ...(lte === undefined ? {} : { lte }) } },
        },
      };

/** Analyzed, prefix-friendly text match: the query is folded like the indexed field (see foldText). */
const textMatch = (field: string, value: string | undefined): Part =>
  value && foldText(value).trim()
    ? { filter: { match_bool_prefix: { [field]: { query: foldText(value).trim(), operator: 'and' } } } }
    : null;

/** Every OPP-FILTERS filter as a tiny function of (params, context) → clause or nothing. */
const FILTERS: ((q: OppFilters, c: FilterContext) => Part)[] = [
  (q) => textMatch('searchText', q.search),
  (q) => textMatch('searchName', q.name),
  (q, c) => {
    if (!q.campaignId) return null;
    if (!c.campaignOpportunityIds) throw new Error('campaignId filter without its opportunities resolved');
    return { filter: { terms: { id: c.campaignOpportunityIds } } };
  },
  (q) =>
    q.creatorSlug
      ? {
          filter: {
            bool: {
              should: [
                { term: { creatorSlugs: q.creatorSlug.toLowerCase() } },
                { term: { creatorAddresses: q.creatorSlug.toLowerCase() } },
              ],
              minimum_should_match: 1,
            },
          },
        }
      : null,
  (q) => (q.creatorAddress ? { filter: { term: { creatorAddresses: q.creatorAddress.toLowerCase() } } } : null),
  (q) => terms('chainId', list(q.chainId).map(Number)),
  (q) => terms('action', list(q.action)),
  (q) => terms('rewardTokenTypes', flat(q.tokenTypes)),
  // Point-only opportunities are shown with point=true, or when POINT is asked for explicitly.
  (q) => (q.point || flat(q.tokenTypes).includes('POINT') ? null : { mustNot: { term: { allRewardsPoint: true } } }),
  (q) => terms('type', list(q.type)),
  (q) => terms('tags', list(q.tags)),
  (q, c) =>
    q.test
      ? null
      : {
          mustNot: {
            bool: {
              should: [
                { term: { allRewardsTest: true } },
                ...(c.testChainIds?.length ? [{ terms: { chainId: c.testChainIds } }] : []),
              ],
              minimum_should_match: 1,
            },
          },
        },
  (q) => range('tvl', q.minimumTvl, q.maximumTvl),
  (q) => range('apr', q.minimumApr, q.maximumApr),
  (q) => range('dailyRewards', q.minimumDailyRewards, q.maximumDailyRewards),
  (q) => range('lastCampaignCreatedAt', q.minimumCreatedAt, q.maximumCreatedAt),
  (q, c) =>
    q.status
      ? {
          filter: {
            bool: {
              should: list(q.status).map((s) => opportunityStatusClause(s as OpportunityStatusFilter, c.now)),
              minimum_should_match: 1,
            },
          },
        }
      : null,
  (q) => (q.identifier ? { filter: { term: { identifier: q.identifier.toLowerCase() } } } : null),
  (q) => terms('id', list(q.id)),
  (q) => terms('tokens.symbol', lower(list(q.tokens))),
  (q) => (q.stablecoin ? { filter: { term: { stablecoin: true } } } : null),
  (q) => (q.rewardTokenSymbol ? { filter: { term: { rewardTokenSymbols: q.rewardTokenSymbol.toLowerCase() } } } : null),
  // FIX_REWARD / MAX_REWARD name families of distribution types (FIX_REWARD_VALUE_PER_…): prefix match.
  (q) =>
    flat(q.distributionTypes).length
      ? {
          filter: {
            bool: {
              should: flat(q.distributionTypes).map((d) => ({ prefix: { distributionType: d } })),
              minimum_should_match: 1,
            },
          },
        }
      : null,
  (q) => terms('mainProtocol', list(q.mainProtocolId)),
  (q) => terms('programSlugs', list(q.programSlugs)),
  (q) => terms('chainName', lower(list(q.chainName))),
  (q) => (q.explorerAddress ? { filter: { term: { explorerAddress: q.explorerAddress.toLowerCase() } } } : null),
  (q) => (q.withInvalids ? null : { mustNot: { term: { action: 'INVALID' } } }),
  (q) => terms('campaignTypes', list(q.campaignTypes).map(Number)),
  (q) => (q.excludeSubCampaigns ? { filter: { term: { hasRootCampaign: true } } } : null),
];

/**
 * Pure: OPP-FILTERS (or CREATOR-OPP-FILTERS, whose parameters are a subset) → one bool query.
 * Paging and sort parameters are not filters and are ignored here.
 */
export function buildOpportunityFilter(
  q: OppFilters,
  context: FilterContext,
): { bool: { filter: Clause[]; must_not: Clause[] } } {
  const parts = FILTERS.map((f) => f(q, context)).filter((p): p is NonNullable<Part> => p !== null);
  return {
    bool: {
      filter: parts.map((p) => p.filter).filter((c): c is Clause => c !== undefined),
      must_not: parts.map((p) => p.mustNot).filter((c): c is Clause => c !== undefined),
    },
  };
}
