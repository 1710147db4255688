import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { NATIVE_APR_STATUSES } from '../nativeAprStatus.js';
import { TVL_STATUSES } from '../tvlStatus.js';

/**
 * The one definition of each public record the API serves everywhere (issue 47): a plain JSON Schema
 * declared `as const`. The OpenAPI component (api/openapi/records.ts names it), the response check,
 * the TypeScript type (RecordOf), the serializers' and the documents' types all derive from it, and
 * the web reads the generated client's type of the same component (clients/typescript).
 * Properties are required as the contract says (../shared/spec/api-spec.md); extra properties are allowed.
 */

const str = { type: 'string' } as const;
const num = { type: 'number' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
/** Any JSON value. */
const any = {} as const;
/** An integer too large for a JSON number (wei, uint256, Unix seconds as bigint) as a decimal string. */
const decimal = { type: 'string', pattern: '^-?[0-9]+$' } as const;
const numOrString = { type: ['number', 'string'] } as const;
const strings = { type: 'array', items: str } as const;
const nullableStr = { type: ['string', 'null'] } as const;

/** Token record: the `Token` component of /v4/openapi.json. */
export const TOKEN_RECORD_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'name',
    'chainId',
    'address',
    'decimals',
    'symbol',
    'icon',
    'verified',
    'isNative',
    'isTest',
    'type',
  ],
  properties: {
    id: str,
    name: { type: ['string', 'null'] },
    chainId: int,
    address: str,
    decimals: num,
    symbol: str,
    icon: str,
    verified: bool,
    isNative: bool,
    isTest: bool,
    type: { enum: ['TOKEN', 'PRETGE', 'POINT'] },
    price: { type: ['number', 'null'] },
    updatedAt: { type: ['number', 'null'] },
    priceSource: { type: ['string', 'null'] },
    /** Custom display symbol, when the operator set one (the token API falls back to the symbol). */
    displaySymbol: str,
    /** Present only when the token wraps another. */
    underlyingTokenId: str,
    /** We raise no price alerts: absent. */
    priceAlertDismissedAt: num,
    priceAlertCount: num,
  },
} as const satisfies JSONSchema;

/** Chain record: the `Chain` component of /v4/openapi.json. */
export const CHAIN_RECORD_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'name',
    'icon',
    'liveCampaigns',
    'endOfDisputePeriod',
    'explorers',
    'lastClaimsOnchainFetchTimestamp',
  ],
  properties: {
    id: int,
    name: str,
    icon: str,
    liveCampaigns: num,
    endOfDisputePeriod: num,
    explorers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url', 'chainId'],
        properties: { type: str, url: str, chainId: num },
      },
    },
    lastClaimsOnchainFetchTimestamp: { type: ['string', 'null'] },
  },
} as const satisfies JSONSchema;

/** A daily-rewards breakdown (a campaign's `dailyRewardsBreakdown`, an opportunity's `rewardsRecord`): its token is the full Token record. */
const BREAKDOWN_SCHEMA = {
  type: 'object',
  required: ['campaignId', 'value'],
  properties: {
    campaignId: str,
    value: num,
    maxValue: num,
    timestamp: numOrString,
    token: TOKEN_RECORD_SCHEMA,
    amount: numOrString,
    distributionType: str,
    onChainCampaignId: str,
  },
} as const satisfies JSONSchema;

/**
 * Reward tokens (ids, as `rewardToken.id`) that `apr` and `dailyRewards` leave out for want of a fresh
 * price: those figures stay numbers, but count such a token as nothing, so they are lower bounds (or
 * unknown, when every reward token is listed). Absent when every reward token is priced.
 */
const UNPRICED_REWARD_TOKENS_SCHEMA = {
  ...strings,
  description:
    'Reward token ids that apr and dailyRewards leave out for want of a fresh price (those figures then count them as 0); absent when every reward token is priced',
} as const satisfies JSONSchema;

/** A campaign's computation status (`campaignStatus`): pending until the metrics job computed it. */
const CAMPAIGN_STATUS_SCHEMA = {
  type: 'object',
  required: [
    'campaignId',
    'computedUntil',
    'processingStarted',
    'status',
    'preComputeProcessingStarted',
    'preComputeStatus',
  ],
  properties: {
    campaignId: str,
    computedUntil: numOrString,
    processingStarted: numOrString,
    status: str,
    preComputeProcessingStarted: numOrString,
    preComputeStatus: str,
    delay: numOrString,
    error: str,
    details: any,
  },
} as const satisfies JSONSchema;

/** Campaign record: the `Campaign` component of /v4/openapi.json. */
export const CAMPAIGN_RECORD_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'computeChainId',
    'distributionChainId',
    'campaignId',
    'type',
    'subType',
    'amount',
    'startTimestamp',
    'endTimestamp',
    'creatorAddress',
    'apr',
    'dailyRewards',
    'creator',
    'params',
    'description',
    'chain',
    'rewardTokenId',
    'rewardToken',
    'opportunityId',
    'distributionChain',
    'distributionType',
    'campaignStatus',
    'createdAt',
    'rootCampaignId',
    'parentCampaignId',
    'childCampaignIds',
    'dailyRewardsBreakdown',
    'pauseCompute',
    'pausePrecompute',
    'hasOverrides',
    'isPrivate',
    'hidden',
    'hideLeaderboard',
    'campaignEncodingHash',
  ],
  properties: {
    id: str,
    computeChainId: int,
    distributionChainId: int,
    campaignId: str,
    type: str,
    subType: { type: ['number', 'null'] },
    amount: decimal,
    startTimestamp: decimal,
    endTimestamp: decimal,
    creatorAddress: str,
    apr: num,
    dailyRewards: num,
    unpricedRewardTokens: UNPRICED_REWARD_TOKENS_SCHEMA,
    creator: {
      type: 'object',
      required: ['address'],
      properties: { address: str, tags: strings, creatorId: nullableStr },
    },
    params: any,
    description: str,
    chain: { anyOf: [CHAIN_RECORD_SCHEMA, { type: 'null' }] },
    rewardTokenId: str,
    rewardToken: TOKEN_RECORD_SCHEMA,
    opportunityId: str,
    distributionChain: { anyOf: [CHAIN_RECORD_SCHEMA, { type: 'null' }] },
    distributionType: str,
    campaignStatus: CAMPAIGN_STATUS_SCHEMA,
    createdAt: str,
    rootCampaignId: nullableStr,
    parentCampaignId: nullableStr,
    childCampaignIds: strings,
    dailyRewardsBreakdown: { type: 'array', items: BREAKDOWN_SCHEMA },
    pauseCompute: nullableStr,
    pausePrecompute: nullableStr,
    hasOverrides: bool,
    isPrivate: bool,
    hidden: bool,
    hideLeaderboard: bool,
    campaignEncodingHash: str,
  },
} as const satisfies JSONSchema;

/** Where an opportunity's status stands among its campaigns' windows (opportunities, light opportunities). */
const OPPORTUNITY_STATUS_SCHEMA = { enum: ['NONE', 'PAST', 'LIVE', 'SOON'] } as const satisfies JSONSchema;

/** One of an opportunity's deposit links (`depositUrls`). */
const DEPOSIT_URL_SCHEMA = {
  type: 'object',
  required: ['url'],
  properties: { id: str, title: str, url: str, subtitle: str, icon: str, priority: num },
} as const satisfies JSONSchema;

/**
 * The light opportunity a campaign list attaches under `opportunity` (docs/api-behaviour.md#light-opportunity): absent
 * fields are null. The `LightOpportunity` component of /v4/openapi.json.
 */
export const LIGHT_OPPORTUNITY_RECORD_SCHEMA = {
  type: 'object',
  required: ['id', 'type', 'identifier', 'name', 'status', 'chainId'],
  properties: {
    id: str,
    type: str,
    identifier: str,
    name: str,
    status: OPPORTUNITY_STATUS_SCHEMA,
    action: nullableStr,
    description: nullableStr,
    howToSteps: { anyOf: [strings, { type: 'null' }] },
    mainProtocol: nullableStr,
    depositUrl: nullableStr,
    depositUrls: { anyOf: [{ type: 'array', items: DEPOSIT_URL_SCHEMA }, { type: 'null' }] },
    explorerAddress: nullableStr,
    tags: { anyOf: [strings, { type: 'null' }] },
    chainId: int,
    apr: { type: ['number', 'null'] },
    nativeApr: { type: ['number', 'null'] },
    dailyRewards: { type: ['number', 'null'] },
    maxDailyRewards: { type: ['number', 'null'] },
    tvl: { type: ['number', 'null'] },
    hidden: { type: ['boolean', 'null'] },
    liveCampaigns: { type: ['number', 'null'] },
    lastCampaignCreatedAt: { type: ['number', 'null'] },
    earliestCampaignStart: { anyOf: [numOrString, { type: 'null' }] },
    latestCampaignStart: { anyOf: [numOrString, { type: 'null' }] },
    earliestCampaignEnd: { anyOf: [numOrString, { type: 'null' }] },
    latestCampaignEnd: { anyOf: [numOrString, { type: 'null' }] },
  },
} as const satisfies JSONSchema;

/** Protocol record: the `Protocol` component of /v4/openapi.json, the `protocol` of an Opportunity record. */
export const PROTOCOL_RECORD_SCHEMA = {
  type: 'object',
  required: ['id', 'name', 'icon', 'description', 'url', 'tags'],
  properties: {
    id: str,
    name: str,
    icon: str,
    description: str,
    url: str,
    tags: strings,
    dailyRewards: num,
    numberOfLiveCampaigns: num,
    opportunityLiveTags: strings,
    banner: nullableStr,
    opportunityBannerLight: nullableStr,
    opportunityBannerDark: nullableStr,
    trustData: { anyOf: [{ type: 'object' }, { type: 'null' }] },
  },
} as const satisfies JSONSchema;

/** A program an opportunity belongs to (`activePrograms`). */
const ACTIVE_PROGRAM_SCHEMA = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: str, name: str, slug: nullableStr, description: str, icon: str },
} as const satisfies JSONSchema;

/** The live campaigns' APRs of an opportunity (`aprRecord`). */
const APR_RECORD_SCHEMA = {
  type: 'object',
  required: ['cumulated', 'timestamp', 'breakdowns'],
  properties: {
    cumulated: num,
    timestamp: numOrString,
    breakdowns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['identifier', 'type', 'value'],
        properties: { identifier: str, type: str, value: num, timestamp: numOrString, distributionType: str },
      },
    },
  },
} as const satisfies JSONSchema;

/** The protocol's own yield of an opportunity and why it is known or not (`nativeAprRecord`, #42). */
const NATIVE_APR_RECORD_SCHEMA = {
  type: 'object',
  required: ['title', 'value', 'timestamp'],
  properties: {
    title: str,
    description: str,
    value: num,
    status: {
      enum: NATIVE_APR_STATUSES,
      description:
        "Why `value` (= `nativeApr`, the protocol's own yield, %) is known (`ok`: a Morpho Blue market's supply rate from its IRM, an ERC4626 vault's share-price growth over the last day, a Uniswap V3 pool's LP fees over the last day against its TVL, all simple, not compounded) or unknown, 0 then meaning unknown, not zero: `unsupported-target` (no native yield is read for this type: plain ERC20, Uniswap V4 and Aave positions for now), `read-failed`, `no-history` (no stored block a day old, or a vault or pool younger than a day), `unpriced` (a pool's fees or TVL cannot be valued: a token without a fresh price, an unknown or zero TVL), `not-computed`",
    },
    timestamp: numOrString,
  },
} as const satisfies JSONSchema;

/** An opportunity's TVL and whether it is known (`tvlRecord`, #42). */
const TVL_RECORD_SCHEMA = {
  type: 'object',
  required: ['total', 'status', 'timestamp', 'breakdowns'],
  properties: {
    total: num,
    status: {
      enum: TVL_STATUSES,
      description:
        "Whether the TVL is known: `ok` (read and priced); otherwise unknown (`tvl` and `total` 0, no breakdowns) because `unsupported-target` (the identifier is not something its type is read from on this chain), `read-failed` (the target's reads reverted, or no such contract or market), `unpriced` (a token of it has no fresh price: `unpricedTokens`) or `not-computed` (not computed yet)",
    },
    timestamp: numOrString,
    breakdowns: {
      type: 'array',
      items: {
        type: 'object',
        required: ['identifier', 'type', 'value'],
        properties: { identifier: str, type: str, value: num },
      },
    },
    unpricedTokens: {
      ...strings,
      description:
        'Ids (as `rewardToken.id`) of the tokens the TVL is read in that have no fresh price: the TVL is then unknown (`status` `unpriced`). Absent when every token is priced.',
    },
  },
} as const satisfies JSONSchema;

/** The daily rewards of an opportunity's live campaigns (`rewardsRecord`). */
const REWARDS_RECORD_SCHEMA = {
  type: 'object',
  required: ['total', 'timestamp', 'breakdowns'],
  properties: { total: num, timestamp: numOrString, breakdowns: { type: 'array', items: BREAKDOWN_SCHEMA } },
} as const satisfies JSONSchema;

/** Opportunity record: the `Opportunity` component of /v4/openapi.json. */
export const OPPORTUNITY_RECORD_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'chainId',
    'type',
    'identifier',
    'name',
    'status',
    'action',
    'hidden',
    'tvl',
    'apr',
    'dailyRewards',
    'nativeApr',
    'totalApr',
    'liveCampaigns',
    'earliestCampaignStart',
    'latestCampaignStart',
    'earliestCampaignEnd',
    'latestCampaignEnd',
    'tokens',
    'chain',
    'aprRecord',
    'nativeAprRecord',
    'tvlRecord',
    'rewardsRecord',
  ],
  properties: {
    id: str,
    chainId: int,
    type: str,
    identifier: str,
    name: str,
    description: str,
    howToSteps: strings,
    status: OPPORTUNITY_STATUS_SCHEMA,
    action: str,
    tags: strings,
    mainProtocol: str,
    depositUrl: str,
    depositUrls: { type: 'array', items: DEPOSIT_URL_SCHEMA },
    explorerAddress: str,
    hidden: bool,
    tvl: {
      ...num,
      description:
        'USD value locked. A number as the contract types it: 0 with `tvlRecord.status` other than `ok` means unknown, not zero (and such an opportunity matches no TVL filter, bin, sum, min or max)',
    },
    apr: {
      ...num,
      description:
        "Sum of the live campaigns' APRs (%). 0 with `tvlRecord.status` other than `ok` means unknown (no TVL to divide by), not zero; such an opportunity matches no APR filter, bin, sum, min or max",
    },
    dailyRewards: num,
    unpricedRewardTokens: UNPRICED_REWARD_TOKENS_SCHEMA,
    nativeApr: {
      ...num,
      description:
        "The protocol's own yield (%, simple APR): 0 with `nativeAprRecord.status` other than `ok` means unknown, not zero",
    },
    totalApr: { ...num, description: '`apr` + `nativeApr`; 0 means unknown when `apr` is unknown' },
    maxDailyRewards: { type: ['number', 'null'] },
    maxApr: { type: ['number', 'null'] },
    liveCampaigns: num,
    lastCampaignCreatedAt: num,
    liveCampaignsForCreator: num,
    soonCampaignsForCreator: num,
    pastCampaignsForCreator: num,
    earliestCampaignStart: decimal,
    latestCampaignStart: decimal,
    earliestCampaignEnd: decimal,
    latestCampaignEnd: decimal,
    distributionType: str,
    tokens: { type: 'array', items: TOKEN_RECORD_SCHEMA },
    chain: { anyOf: [CHAIN_RECORD_SCHEMA, { type: 'null' }] },
    activePrograms: { type: 'array', items: ACTIVE_PROGRAM_SCHEMA },
    protocol: { anyOf: [PROTOCOL_RECORD_SCHEMA, { type: 'null' }] },
    aprRecord: APR_RECORD_SCHEMA,
    nativeAprRecord: NATIVE_APR_RECORD_SCHEMA,
    tvlRecord: TVL_RECORD_SCHEMA,
    rewardsRecord: REWARDS_RECORD_SCHEMA,
  },
} as const satisfies JSONSchema;

const summed =
  'summed over its opportunities (those of `GET /v4/opportunities?programSlugs=<slug>&test=true&point=true&withInvalids=true`, public campaigns only)';

/** Program record: the `Program` component of /v4/openapi.json (a named group of opportunities with their totals). */
export const PROGRAM_RECORD_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'name',
    'slug',
    'description',
    'icon',
    'dailyRewards',
    'liveCampaigns',
    'tvl',
    'opportunitiesCount',
    'campaignsCount',
    'opportunities',
  ],
  properties: {
    id: { ...str, description: 'Stable id (uuid)' },
    name: str,
    slug: { ...str, description: 'What opportunities list in `programSlugs` (and the `programSlugs` filter takes)' },
    description: str,
    icon: str,
    dailyRewards: { ...num, description: `USD per day, ${summed}` },
    liveCampaigns: { ...num, description: `Live campaigns, ${summed}` },
    tvl: { ...num, description: `USD, ${summed} (an unknown TVL counts 0, as the Opportunity record serves it)` },
    opportunitiesCount: { ...int, description: 'Number of its opportunities (the length of `opportunities`)' },
    campaignsCount: { ...int, description: `Public campaigns of every status, ${summed}` },
    opportunities: {
      type: 'array',
      items: OPPORTUNITY_RECORD_SCHEMA,
      description: 'Its opportunities, richest first (daily rewards desc, id)',
    },
  },
} as const satisfies JSONSchema;

/** The declared properties of `T`, without the index signature FromSchema adds for the extra properties a schema allows. */
type Declared<T> = { [K in keyof T as string extends K ? never : K]: KnownKeys<T[K]> };

/**
 * `T` with only its declared properties, at every depth; a free-form object (`{ type: 'object' }`, no
 * property declared) stays `Record<string, unknown>`, as the generated client reads it (emptyObjectsUnknown).
 */
type KnownKeys<T> = T extends readonly unknown[]
  ? { [I in keyof T]: KnownKeys<T[I]> }
  : T extends object
    ? [keyof Declared<T>] extends [never]
      ? string extends keyof T
        ? Record<string, unknown>
        : Declared<T>
      : Declared<T>
    : T;

/** The TypeScript type of a record schema: its declared properties, optional where not required. */
export type RecordOf<S extends JSONSchema> = KnownKeys<FromSchema<S>>;
