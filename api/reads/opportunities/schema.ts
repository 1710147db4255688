import { OPPORTUNITY_ACTIONS } from '../../../domain/campaignTypes.js';
import { fields, type InputOf } from '../../validate.js';
import { CAMPAIGN_STATUSES, DISTRIBUTION_FILTER_TYPES, TOKEN_TYPES, type CampaignStatus } from '../campaigns/schema.js';

/** The status, token-type and distribution filters are the campaign list's (one declaration). */
export const OPPORTUNITY_STATUSES = CAMPAIGN_STATUSES;
export type OpportunityStatusFilter = CampaignStatus;
export { TOKEN_TYPES };
export const DISTRIBUTION_TYPES = DISTRIBUTION_FILTER_TYPES;
/** Accepted `sort` values → the document field sorted on (`rewards` is dailyRewards). */
export const SORT_FIELDS = {
  apr: 'apr',
  tvl: 'tvl',
  rewards: 'dailyRewards',
  maxDailyRewards: 'maxDailyRewards',
  lastCampaignCreatedAt: 'lastCampaignCreatedAt',
  earliestCampaignStart: 'earliestCampaignStart',
  latestCampaignStart: 'latestCampaignStart',
  earliestCampaignEnd: 'earliestCampaignEnd',
  latestCampaignEnd: 'latestCampaignEnd',
} as const;
export type SortKey = keyof typeof SORT_FIELDS;
export const NUMERIC_FIELDS = ['apr', 'tvl', 'dailyRewards'] as const;
export type NumericField = (typeof NUMERIC_FIELDS)[number];
export const GROUP_FIELDS = ['chainId', 'protocolId', 'tags'] as const;
export type GroupField = (typeof GROUP_FIELDS)[number];
export const GRAINS = ['hour', 'day', 'week', 'month'] as const;
export type Grain = (typeof GRAINS)[number];

const text = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;
const intList = {
  type: 'string',
  pattern: `^${fields.int32Pattern}(,${fields.int32Pattern})*$`,
  maxLength: 2000,
} as const;
const plainList = { type: 'string', minLength: 1, maxLength: 2000 } as const;
/** Comma list that may also be repeated (`?tokenTypes=TOKEN&tokenTypes=POINT`); coerced to an array. */
const repeatableList = (values: readonly string[]) =>
  ({
    type: 'array',
    maxItems: 10,
    items: fields.commaList(values),
  }) as const;
const amount = { type: 'number', minimum: -1e308, maximum: 1e308 } as const;
const address = fields.address;

/**
 * CREATOR-OPP-FILTERS, the filters of GET /v4/creators/{creator}/opportunities: OPP-FILTERS (oppFiltersQuery below)
 * without campaignId, creator*, point, campaigns, excludeSubCampaigns, withInvalids.
 */
const creatorOppFilterProperties = {
  page: fields.page,
  items: fields.items,
  name: text(200),
  search: text(200),
  chainId: intList,
  action: fields.commaList(OPPORTUNITY_ACTIONS),
  tokenTypes: repeatableList(TOKEN_TYPES),
  type: plainList,
  tags: plainList,
  test: { type: 'boolean', default: false },
  minimumTvl: amount,
  maximumTvl: amount,
  minimumApr: amount,
  maximumApr: amount,
  minimumDailyRewards: amount,
  maximumDailyRewards: amount,
  minimumCreatedAt: fields.unixSeconds,
  maximumCreatedAt: fields.unixSeconds,
  status: fields.commaList(OPPORTUNITY_STATUSES),
  identifier: text(200),
  id: plainList,
  tokens: plainList,
  stablecoin: { type: 'boolean', default: false },
  rewardTokenSymbol: text(100),
  sort: { type: 'string', enum: Object.keys(SORT_FIELDS) as SortKey[] },
  order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
  distributionTypes: repeatableList(DISTRIBUTION_TYPES),
  mainProtocolId: plainList,
  programSlugs: plainList,
  chainName: plainList,
  explorerAddress: address,
  campaignTypes: intList,
} as const;

/**
 * OPP-FILTERS, the opportunity filter set: the query of GET /v4/opportunities and of its count, summary, bins and
 * aggregates. Every parameter bounded; unknown parameters are a 400.
 */
export const oppFiltersQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...creatorOppFilterProperties,
    campaignId: { type: 'string', pattern: '^0x[0-9a-fA-F]{1,64}$' },
    creatorSlug: text(100),
    creatorAddress: address,
    point: { type: 'boolean', default: false },
    campaigns: { type: 'boolean', default: false },
    excludeSubCampaigns: { type: 'boolean', default: false },
    withInvalids: { type: 'boolean', default: false },
  },
} as const;

/** CREATOR-OPP-FILTERS as a query schema (for /v4/creators/{creator}/opportunities). */
export const creatorOppFiltersQuery = {
  type: 'object',
  additionalProperties: false,
  properties: creatorOppFilterProperties,
} as const;

/** CREATOR-OPP-FILTERS without page and items (for /v4/creators/{creator}/opportunities/count). */
export const creatorOppCountQuery = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(
    Object.entries(creatorOppFilterProperties).filter(([k]) => k !== 'page' && k !== 'items'),
  ) as Omit<typeof creatorOppFilterProperties, 'page' | 'items'>,
} as const;

type OppFiltersInput = InputOf<typeof oppFiltersQuery>;
/**
 * OPP-FILTERS as the query builders read them: the validated oppFiltersQuery (defaults applied),
 * every filter optional, since the creator routes accept fewer and their count route no paging.
 * Lists stay comma strings; builders split them.
 */
export type OppFilters = Partial<OppFiltersInput>;
/** OPP-FILTERS of a listing: paging present. */
export type PagedOppFilters = OppFilters & Pick<OppFiltersInput, 'page' | 'items'>;

/** Path of /aggregate/{field}: sums for apr|tvl|dailyRewards, grouped buckets for chainId|protocolId|tags. */
export const aggregateParams = {
  type: 'object',
  additionalProperties: false,
  required: ['field'],
  properties: { field: { type: 'string', enum: [...NUMERIC_FIELDS, ...GROUP_FIELDS] } },
} as const;
/** Path of /aggregate/max|min/{field}: the fields of /aggregate/{field} (issue 31); keyword fields compare as text. */
export const extremumParams = aggregateParams;

/** Path `id`: a numeric hash (1–20 digits) or the composite `chainId-TYPE-identifier`. */
export const opportunityIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      pattern: '^([0-9]{1,20}|[0-9]{1,10}-[0-9A-Z_]{1,40}-[^\\s]{1,200})$',
      'x-accepts': 'an opportunity id (decimal, up to 20 digits) or chainId-TYPE-identifier (e.g. 1-ERC20-0x…)',
    },
  },
} as const;

/** Query of /{id}/campaigns: test, point, tokenTypes, campaigns and excludeSubCampaigns, nothing else. */
export const opportunityCampaignsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    test: { type: 'boolean', default: false },
    point: { type: 'boolean', default: false },
    tokenTypes: repeatableList(TOKEN_TYPES),
    campaigns: { type: 'boolean', default: true },
    excludeSubCampaigns: { type: 'boolean', default: false },
  },
} as const;

/** Query of /{id}/storing-ids. */
export const storingIdsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { campaignStatus: { ...fields.commaList(OPPORTUNITY_STATUSES), default: 'LIVE' } },
} as const;

/** Query of the history record routes: paging, a Unix-seconds window and the aggregation grain. */
export const recordsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: fields.page,
    items: fields.items,
    from: fields.unixSeconds,
    to: fields.unixSeconds,
    grain: { type: 'string', enum: [...GRAINS], default: 'hour' },
    format: {
      type: 'string',
      enum: ['csv', 'json'],
      description:
        'csv (a header row `timestamp,date,<metric>`, then one row per bucket) or json; when absent, chosen by Accept (text/csv for CSV). A download link should name it: the answer then does not depend on headers a cache may not key on.',
    },
  },
} as const;

const curationLabel = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' } as const;
const curationLabels = { type: 'array', maxItems: 50, uniqueItems: true, items: curationLabel } as const;

/**
 * PATCH /v4/opportunities/{id} body (back office): new `tags` and/or `programSlugs` (lower-case slugs), and/or
 * `mainProtocolId` (a protocol of the catalogue; null: back to its campaign type's).
 */
export const curationBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    tags: curationLabels,
    programSlugs: curationLabels,
    mainProtocolId: {
      type: ['string', 'null'],
      pattern: '^[a-z0-9][a-z0-9-]{0,63}$',
      'x-accepts': 'a protocol id of GET /v4/protocols, or null for its campaign type’s',
    },
  },
} as const;

/** PATCH /v4/opportunities/{id}/tags body (back office): tags to `add` and to `remove`. */
export const tagsBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { add: curationLabels, remove: curationLabels },
} as const;
