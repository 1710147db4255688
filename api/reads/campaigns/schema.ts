import { fields, type InputOf, type RequestSchema } from '../../validate.js';

export const CAMPAIGN_STATUSES = ['LIVE', 'PAST', 'SOON'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const TOKEN_TYPES = ['TOKEN', 'PRETGE', 'POINT'] as const;
export const DISTRIBUTION_FILTER_TYPES = ['FIX_REWARD', 'MAX_REWARD', 'DUTCH_AUCTION', 'TOTAL_APR'] as const;

const text = { type: 'string', minLength: 1, maxLength: 256 } as const;
const address = fields.address;
/** Array parameters: repeated keys (`?a=1&a=2`) or comma lists (`?a=1,2`), split by toListParams. */
const list = <const I extends RequestSchema>(item: I) => ({ type: 'array', maxItems: 100, items: item }) as const;
const commaItems = (pattern: string) =>
  list({ type: 'string', pattern: `^(${pattern})(,(${pattern}))*$`, maxLength: 8192 });
/** A list of enum values; a bad value is reported as `<field>.<index>: must be a comma-separated list of …`. */
const enumItems = (values: readonly string[]) => list(fields.commaList(values));
const bool = fields.boolean;
const flag = fields.boolean; // defaults (false) are applied by toListParams / the handlers
/** Date, date-time string, date string, Unix seconds/milliseconds or `null`; parsed by parseCreatedBound. */
const createdBound = { type: 'string', maxLength: 64 } as const;

/** GET /v4/campaigns query: every list filter (the route's OpenAPI parameters). Arrays are normalized by toListParams. */
export const listCampaignsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: fields.page,
    items: fields.items,
    id: commaItems('[0-9]{1,20}'),
    creatorTag: text,
    creatorAddress: address,
    creatorAddresses: commaItems('0x[0-9a-fA-F]{40}'),
    creatorId: text,
    chainId: fields.chainId,
    search: text,
    distributionChainIds: commaItems(fields.int32Pattern),
    type: { type: 'string', pattern: '^[A-Za-z0-9_]{1,64}$' },
    types: commaItems('[A-Za-z0-9_]{1,64}'),
    subType: { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1 },
    campaignId: { type: 'string', pattern: '^0x[0-9a-fA-F]{1,64}$' },
    campaignIds: commaItems('0x[0-9a-fA-F]{1,64}'),
    mainParameter: text,
    tokenSymbol: text,
    tokenAddress: address,
    test: flag,
    tokenTypes: enumItems(TOKEN_TYPES),
    point: bool,
    opportunityId: { type: 'string', pattern: '^[0-9]{1,20}$' },
    opportunityIds: commaItems('[0-9]{1,20}'),
    status: fields.commaList(CAMPAIGN_STATUSES),
    startTimestamp: fields.unixSeconds,
    endTimestamp: fields.unixSeconds,
    withOpportunity: flag,
    distributionTypes: enumItems(DISTRIBUTION_FILTER_TYPES),
    createdAfter: createdBound,
    createdBefore: createdBound,
    excludeSubCampaigns: flag,
    onlySubCampaigns: flag,
    rootCampaignId: { type: 'string', pattern: '^[0-9]{1,20}$' },
    parentCampaignId: { type: 'string', pattern: '^[0-9]{1,20}$' },
    mainProtocolId: text,
    pauseCompute: text,
    showPrivate: flag,
    listOwner: address,
    campaignLists: { type: 'string', minLength: 1, maxLength: 2048 },
  },
} as const;

/** The validated query as ajv leaves it (arrays still possibly holding comma lists). */
export type ListCampaignsQuery = InputOf<typeof listCampaignsQuery>;

/** Path of the by-id routes: an internal numeric id or `distributionChainId-campaignId`. */
export const campaignIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      pattern: `^([0-9]{1,20}|0*${fields.int32Pattern}-0x[0-9a-fA-F]{64})$`,
      'x-accepts': fields.campaignIdAccepts,
    },
  },
} as const;

/**
 * Path of the by-id routes resolved in PostgreSQL (metrics, storing-ids, linked, creators' campaign
 * metrics, ratchet): also the bare on-chain id (`0x…`, 32 bytes), resolved by
 * resolveVisibleCampaignDbId when it names one campaign (issue 31).
 */
export const campaignRefParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      pattern: `^([0-9]{1,20}|0*${fields.int32Pattern}-0x[0-9a-fA-F]{64}|0x[0-9a-fA-F]{64})$`,
      'x-accepts': `${fields.campaignIdAccepts}, or the on-chain campaign id alone (0x and 64 hex digits)`,
    },
  },
} as const;

/** No query parameters are accepted. */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

export const getCampaignQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { showPrivate: flag },
} as const;

export const campaignTxQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['hash', 'chainId'],
  properties: { hash: fields.bytes32, chainId: fields.chainId },
} as const;

/** Metrics series names and their query keys: `tvl={"page":0,"limit":50}` or `tvl[page]=0&tvl[limit]=50`. */
export const METRIC_SERIES = ['tvl', 'apr', 'dailyRewards', 'walletCount'] as const;
export type MetricSeries = (typeof METRIC_SERIES)[number];

export const campaignMetricsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(
    METRIC_SERIES.flatMap((s) => [
      [s, { type: 'string', maxLength: 256 }],
      [`${s}[page]`, fields.page],
      [`${s}[limit]`, { type: 'integer', minimum: 1, maximum: 1000 }],
    ]),
  ),
} as const;

export const linkedCampaignsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    test: flag,
    point: bool,
    tokenTypes: enumItems(TOKEN_TYPES),
    campaigns: bool,
    excludeSubCampaigns: flag,
  },
} as const;

export type LinkedCampaignsQuery = InputOf<typeof linkedCampaignsQuery>;

/** Groupings of GET /v4/campaigns/count/by-{chains,types,protocols}. */
export const COUNT_GROUPS = ['chains', 'types', 'protocols'] as const;
export type CountGroup = (typeof COUNT_GROUPS)[number];

/**
 * GET /v4/campaigns/count[/by-…] query: the list filters (paging accepted and ignored), plus `grain=month`
 * for a series over the campaigns' creation months.
 */
export const countCampaignsQuery = {
  ...listCampaignsQuery,
  properties: {
    ...listCampaignsQuery.properties,
    grain: { type: 'string', enum: ['month'], 'x-accepts': '`month`: counts per UTC month of creation (`createdAt`)' },
  },
} as const;
export type CountCampaignsQuery = InputOf<typeof countCampaignsQuery>;
