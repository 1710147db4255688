import { searchWords } from './searchWords.js';
import { parseCampaignPathId } from '../../../domain/ids.js';
import type { CampaignListParams } from './params.js';
import type { CampaignStatus } from './schema.js';

type Clause = Record<string, unknown>;
type Q = CampaignListParams;

/** Pure: the time condition of one status at `now` (SOON: not started, LIVE: running, PAST: ended). */
export function statusClause(status: CampaignStatus, now: number): Clause {
  if (status === 'SOON') return { range: { startTimestamp: { gt: now } } };
  if (status === 'PAST') return { range: { endTimestamp: { lte: now } } };
  return { bool: { filter: [{ range: { startTimestamp: { lte: now } } }, { range: { endTimestamp: { gt: now } } }] } };
}

const term = (field: string, value: unknown): Clause => ({ term: { [field]: value } });
const terms = (field: string, values: readonly unknown[]): Clause => ({ terms: { [field]: values } });
const when = <T>(value: T | undefined, clause: (v: T) => Clause): Clause | null =>
  value === undefined ? null : clause(value);

/**
 * Pure: prefix-friendly, case- and accent-insensitive free text: every word of the folded query must
 * start a word of the campaign's searchText (`crem tok` finds "Crème Token") or of its opportunity's
 * (name, protocol, target token: `opportunityIds[i]` are the opportunities word i starts a word of,
 * see searchOpportunities.ts), so `Supply sUSDx` finds the campaigns of "Supply sUSDx".
 */
export function searchClause(search: string, opportunityIds: readonly (readonly string[])[] = []): Clause {
  const words = searchWords(search);
  if (!words.length) return { match_none: {} };
  return {
    bool: {
      filter: words.map((w, i) => {
        const own = { prefix: { searchText: w } };
        const ids = opportunityIds[i];
        return ids?.length ? { bool: { should: [own, terms('opportunityId', ids)], minimum_should_match: 1 } } : own;
      }),
    },
  };
}

const typeFilter = (q: Q): Clause | null => {
  if (!q.campaignTypes && !q.typeNames) return null;
  const should = [
    q.campaignTypes?.length ? terms('campaignType', q.campaignTypes) : null,
    q.typeNames ? terms('type', q.typeNames) : null,
  ].filter(Boolean);
  // Only names nobody knows: nothing can match, still a valid (empty) clause set.
  return { bool: { should: should.length ? should : [terms('id', [])], minimum_should_match: 1 } };
};

const statusFilter = (q: Q, now: number): Clause | null =>
  q.statuses ? { bool: { should: q.statuses.map((s) => statusClause(s, now)), minimum_should_match: 1 } } : null;

const createdFilter = (q: Q): Clause | null => {
  if (!q.createdAfter && !q.createdBefore) return null;
  return {
    range: {
      createdAt: {
        ...(q.createdAfter ? { gte: q.createdAfter } : {}),
        ...(q.createdBefore ? { lte: q.createdBefore } : {}),
      },
    },
  };
};

/** What the handler resolved before building: campaign-list ids, and the opportunities each search word matches. */
type ListQueryContext = {
  listCampaignIds?: readonly string[];
  searchOpportunityIds?: readonly (readonly string[])[];
};

/** Every positive filter, one small function each; null when the parameter is absent. */
function filters(q: Q, now: number, context: ListQueryContext): (Clause | null)[] {
  const { listCampaignIds, searchOpportunityIds } = context;
  return [
    when(q.ids, (v) => terms('id', v)),
    when(q.creatorTag, (v) => term('creator.tags', v)),
    when(q.creatorAddress, (v) => term('creatorAddress', v)),
    when(q.creatorAddresses, (v) => terms('creatorAddress', v)),
    when(q.creatorId, (v) => term('creator.creatorId', v)),
    when(q.chainId, (v) => term('computeChainId', v)),
    when(q.search, (v) => searchClause(v, searchOpportunityIds)),
    when(q.distributionChainIds, (v) => terms('distributionChainId', v)),
    typeFilter(q),
    when(q.subType, (v) => term('subType', v)),
    when(q.campaignIds, (v) => terms('campaignId', v)),
    when(q.mainParameter, (v) => term('mainParameter', v)),
    when(q.tokenSymbol, (v) => term('rewardToken.symbol', v)),
    when(q.tokenAddress, (v) => term('rewardToken.address', v)),
    // tokenAddress "combined with chainId": the reward token lives on that chain too.
    q.tokenAddress !== undefined && q.chainId !== undefined ? term('rewardToken.chainId', q.chainId) : null,
    when(q.tokenTypes, (v) => terms('rewardToken.type', v)),
    q.point === true ? term('rewardToken.type', 'POINT') : null,
    when(q.opportunityIds, (v) => terms('opportunityId', v)),
    statusFilter(q, now),
    when(q.startAfter, (v) => ({ range: { startTimestamp: { gt: v } } })),
    when(q.endAfter, (v) => ({ range: { endTimestamp: { gt: v } } })),
    when(q.distributionTypes, (v) => terms('distributionFamily', v)),
    createdFilter(q),
    q.onlySubCampaigns ? { exists: { field: 'parentCampaignId' } } : null,
    when(q.rootCampaignId, (v) => term('rootCampaignId', v)),
    when(q.parentCampaignId, (v) => term('parentCampaignId', v)),
    when(q.mainProtocolId, (v) => term('mainProtocolId', v)),
    when(q.pauseCompute, (v) => term('pauseCompute', v)),
    // Campaign lists: ids resolved from PostgreSQL (an unknown list resolves to [] and matches nothing).
    when(listCampaignIds, (v) => terms('id', v)),
  ];
}

/**
 * Which private campaigns a caller may see (`showPrivate=true`): none (the default), every one
 * (back office), or these internal ids (creator, authorized, grantee, recipient).
 */
export type PrivateVisibility = 'none' | 'all' | readonly string[];

/** Private campaigns, except those the caller may see. */
function privateExclusion(visible: PrivateVisibility): Clause | null {
  if (visible === 'all') return null;
  if (visible === 'none' || !visible.length) return term('isPrivate', true);
  return { bool: { filter: [term('isPrivate', true)], must_not: [terms('id', visible)] } };
}

/** Every exclusion. Private campaigns are listed only to callers allowed to see them. */
function exclusions(q: Q, visible: PrivateVisibility): (Clause | null)[] {
  return [
    privateExclusion(visible),
    q.test ? null : term('rewardToken.isTest', true),
    q.test ? null : term('hidden', true),
    q.point === false ? term('rewardToken.type', 'POINT') : null,
    q.excludeSubCampaigns ? { exists: { field: 'parentCampaignId' } } : null,
  ];
}

const present = (clauses: (Clause | null)[]): Clause[] => clauses.filter((c): c is Clause => c !== null);

/** Newest campaigns first, the id as tie-breaker so pages never repeat or skip a hit. */
export const LIST_SORT: Record<string, 'asc' | 'desc'>[] = [{ createdAt: 'desc' }, { id: 'asc' }];

/**
 * Pure: normalized campaign list params → Elasticsearch search body (from/size are informative:
 * the handler pages through searchPage with the same query and sort).
 * @param listCampaignIds ids of the requested campaign lists, when `campaignLists` was given.
 * @param searchOpportunityIds per word of `search`, the opportunities it matches (opportunityIdsByWord).
 */
export function buildListQuery(
  q: Q,
  now: number,
  listCampaignIds?: readonly string[],
  visible: PrivateVisibility = 'none',
  searchOpportunityIds?: readonly (readonly string[])[],
) {
  const context = { listCampaignIds, searchOpportunityIds };
  return {
    from: q.page * q.items,
    size: q.items,
    track_total_hits: false,
    query: { bool: { filter: present(filters(q, now, context)), must_not: present(exclusions(q, visible)) } },
    sort: LIST_SORT,
  };
}

/**
 * Pure: one campaign by internal id or by `distributionChainId-campaignId`; a private campaign only
 * when `visible` allows it.
 */
export function buildByIdQuery(id: string, visible: PrivateVisibility = 'none') {
  const key = parseCampaignPathId(id);
  const filter =
    key.kind === 'composite'
      ? [term('distributionChainId', key.distributionChainId), term('campaignId', key.campaignId)]
      : [term('id', key.id)];
  return { size: 1, query: { bool: { filter, must_not: present([privateExclusion(visible)]) } } };
}

/** Light opportunity fields attached by `withOpportunity` (docs/api-behaviour.md#light-opportunity). */
export const LIGHT_OPPORTUNITY_FIELDS = [
  'id',
  'type',
  'identifier',
  'name',
  'status',
  'action',
  'description',
  'howToSteps',
  'mainProtocol',
  'depositUrl',
  'depositUrls',
  'explorerAddress',
  'tags',
  'chainId',
  'apr',
  'nativeApr',
  'dailyRewards',
  'maxDailyRewards',
  'tvl',
  'hidden',
  'liveCampaigns',
  'lastCampaignCreatedAt',
  'earliestCampaignStart',
  'latestCampaignStart',
  'earliestCampaignEnd',
  'latestCampaignEnd',
] as const;

/** Pure: the opportunities of one page of campaigns, in one terms query. */
export function buildOpportunitiesQuery(opportunityIds: readonly string[]) {
  const ids = [...new Set(opportunityIds)];
  return {
    size: ids.length,
    track_total_hits: false,
    query: { terms: { id: ids } },
    _source: [...LIGHT_OPPORTUNITY_FIELDS],
  };
}
