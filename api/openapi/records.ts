import { component } from './components.js';
import { CHAIN_RECORD_SCHEMA, TOKEN_RECORD_SCHEMA } from '../../domain/documents/recordSchemas.js';
import type { Schema } from '../validate.js';
import { TVL_STATUSES } from '../../domain/tvlStatus.js';
import { NATIVE_APR_STATUSES } from '../../domain/nativeAprStatus.js';
import { any, arr, bool, decimal, int, nullable, num, obj, str } from './schemaHelpers.js';

const numOrString = { type: ['number', 'string'] } as const;

/** Chain record: the `Chain` component of the API contract, defined once in domain (CHAIN_RECORD_SCHEMA). */
export const chainSchema = component('Chain', CHAIN_RECORD_SCHEMA as Schema);

/** Token record: the `Token` component of the API contract, defined once in domain (TOKEN_RECORD_SCHEMA). */
export const tokenSchema = component('Token', TOKEN_RECORD_SCHEMA as Schema);

/** A daily-rewards breakdown: its token is the full Token record (tokenSchema). */
const breakdown = obj(
  {
    campaignId: str,
    value: num,
    maxValue: num,
    timestamp: numOrString,
    token: tokenSchema,
    amount: numOrString,
    distributionType: str,
    onChainCampaignId: str,
  },
  ['maxValue', 'token', 'amount', 'distributionType', 'onChainCampaignId', 'timestamp'],
);

/**
 * Reward tokens (ids, as `rewardToken.id`) that `apr` and `dailyRewards` leave out for want of a fresh
 * price: those figures stay numbers, but count such a token as nothing, so they are lower bounds (or
 * unknown, when every reward token is listed). Absent when every reward token is priced.
 */
const unpricedRewardTokens = {
  ...arr(str),
  description:
    'Reward token ids that apr and dailyRewards leave out for want of a fresh price (those figures then count them as 0); absent when every reward token is priced',
};

/** Campaign record: the `Campaign` component of the API contract (/v4/openapi.json). */
export const campaignSchema = component(
  'Campaign',
  obj(
    {
      id: str,
      computeChainId: int,
      distributionChainId: int,
      campaignId: str,
      type: str,
      subType: nullable(num),
      amount: decimal,
      startTimestamp: decimal,
      endTimestamp: decimal,
      creatorAddress: str,
      apr: num,
      dailyRewards: num,
      unpricedRewardTokens,
      creator: obj({ address: str, tags: arr(str), creatorId: nullable(str) }, ['tags', 'creatorId']),
      params: any,
      description: str,
      chain: nullable(chainSchema),
      rewardTokenId: str,
      rewardToken: tokenSchema,
      opportunityId: str,
      distributionChain: nullable(chainSchema),
      distributionType: str,
      campaignStatus: obj(
        {
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
        ['delay', 'error', 'details'],
      ),
      createdAt: str,
      rootCampaignId: nullable(str),
      parentCampaignId: nullable(str),
      childCampaignIds: arr(str),
      dailyRewardsBreakdown: arr(breakdown),
      pauseCompute: nullable(str),
      pausePrecompute: nullable(str),
      hasOverrides: bool,
      isPrivate: bool,
      hidden: bool,
      hideLeaderboard: bool,
      campaignEncodingHash: str,
    },
    ['unpricedRewardTokens'],
  ),
);

const opportunityStatus = { enum: ['NONE', 'PAST', 'LIVE', 'SOON'] } as const;
const depositUrl = obj({ id: str, title: str, url: str, subtitle: str, icon: str, priority: num }, [
  'id',
  'title',
  'subtitle',
  'icon',
  'priority',
]);

/**
 * The light opportunity a campaign list attaches under `opportunity` (docs/api-behaviour.md#light-opportunity): absent
 * fields are null.
 */
export const lightOpportunitySchema = component('LightOpportunity', {
  type: 'object',
  required: ['id', 'type', 'identifier', 'name', 'status', 'chainId'],
  properties: {
    id: str,
    type: str,
    identifier: str,
    name: str,
    status: opportunityStatus,
    action: nullable(str),
    description: nullable(str),
    howToSteps: nullable(arr(str)),
    mainProtocol: nullable(str),
    depositUrl: nullable(str),
    depositUrls: nullable(arr(depositUrl)),
    explorerAddress: nullable(str),
    tags: nullable(arr(str)),
    chainId: int,
    apr: nullable(num),
    nativeApr: nullable(num),
    dailyRewards: nullable(num),
    maxDailyRewards: nullable(num),
    tvl: nullable(num),
    hidden: nullable(bool),
    liveCampaigns: nullable(num),
    lastCampaignCreatedAt: nullable(num),
    earliestCampaignStart: nullable(numOrString),
    latestCampaignStart: nullable(numOrString),
    earliestCampaignEnd: nullable(numOrString),
    latestCampaignEnd: nullable(numOrString),
  },
});

/** A campaign of a list or search response, with its light opportunity. */
export const campaignWithOpportunitySchema = component('CampaignWithOpportunity', {
  allOf: [
    campaignSchema,
    {
      type: 'object',
      required: ['opportunity', 'Opportunity'],
      properties: {
        opportunity: nullable(lightOpportunitySchema),
        Opportunity: {
          ...nullable(lightOpportunitySchema),
          deprecated: true,
          description: 'The same object as `opportunity`, under the name the hosted service used; read `opportunity`.',
        },
      },
    },
  ],
});

/** Protocol record: the `Protocol` component, the `protocol` of an Opportunity record. */
export const protocolSchema = component(
  'Protocol',
  obj(
    {
      id: str,
      name: str,
      icon: str,
      description: str,
      url: str,
      tags: arr(str),
      dailyRewards: num,
      numberOfLiveCampaigns: num,
      opportunityLiveTags: arr(str),
      banner: nullable(str),
      opportunityBannerLight: nullable(str),
      opportunityBannerDark: nullable(str),
      trustData: nullable({ type: 'object' }),
    },
    [
      'dailyRewards',
      'numberOfLiveCampaigns',
      'opportunityLiveTags',
      'banner',
      'opportunityBannerLight',
      'opportunityBannerDark',
      'trustData',
    ],
  ),
);

/** Opportunity record: the `Opportunity` component of the API contract (/v4/openapi.json). */
export const opportunitySchema = component(
  'Opportunity',
  obj(
    {
      id: str,
      chainId: int,
      type: str,
      identifier: str,
      name: str,
      description: str,
      howToSteps: arr(str),
      status: opportunityStatus,
      action: str,
      tags: arr(str),
      mainProtocol: str,
      depositUrl: str,
      depositUrls: arr(depositUrl),
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
      unpricedRewardTokens,
      nativeApr: {
        ...num,
        description:
          "The protocol's own yield (%, simple APR): 0 with `nativeAprRecord.status` other than `ok` means unknown, not zero",
      },
      totalApr: { ...num, description: '`apr` + `nativeApr`; 0 means unknown when `apr` is unknown' },
      maxDailyRewards: nullable(num),
      maxApr: nullable(num),
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
      tokens: arr(tokenSchema),
      chain: nullable(chainSchema),
      activePrograms: arr(
        obj({ id: str, name: str, slug: nullable(str), description: str, icon: str }, ['slug', 'description', 'icon']),
      ),
      protocol: nullable(protocolSchema),
      aprRecord: obj({
        cumulated: num,
        timestamp: numOrString,
        breakdowns: arr(
          obj({ identifier: str, type: str, value: num, timestamp: numOrString, distributionType: str }, [
            'timestamp',
            'distributionType',
          ]),
        ),
      }),
      nativeAprRecord: obj(
        {
          title: str,
          description: str,
          value: num,
          status: {
            enum: [...NATIVE_APR_STATUSES],
            description:
              "Why `value` (= `nativeApr`, the protocol's own yield, %) is known (`ok`: a Morpho Blue market's supply rate from its IRM, an ERC4626 vault's share-price growth over the last day, a Uniswap V3 pool's LP fees over the last day against its TVL, all simple, not compounded) or unknown, 0 then meaning unknown, not zero: `unsupported-target` (no native yield is read for this type: plain ERC20, Uniswap V4 and Aave positions for now), `read-failed`, `no-history` (no stored block a day old, or a vault or pool younger than a day), `unpriced` (a pool's fees or TVL cannot be valued: a token without a fresh price, an unknown or zero TVL), `not-computed`",
          },
          timestamp: numOrString,
        },
        ['description', 'status'],
      ),
      tvlRecord: obj(
        {
          total: num,
          status: {
            enum: [...TVL_STATUSES],
            description:
              "Whether the TVL is known: `ok` (read and priced); otherwise unknown (`tvl` and `total` 0, no breakdowns) because `unsupported-target` (the identifier is not something its type is read from on this chain), `read-failed` (the target's reads reverted, or no such contract or market), `unpriced` (a token of it has no fresh price: `unpricedTokens`) or `not-computed` (not computed yet)",
          },
          timestamp: numOrString,
          breakdowns: arr(obj({ identifier: str, type: str, value: num })),
          unpricedTokens: {
            ...arr(str),
            description:
              'Ids (as `rewardToken.id`) of the tokens the TVL is read in that have no fresh price: the TVL is then unknown (`status` `unpriced`). Absent when every token is priced.',
          },
        },
        ['unpricedTokens'],
      ),
      rewardsRecord: obj({ total: num, timestamp: numOrString, breakdowns: arr(breakdown) }),
    },
    [
      'unpricedRewardTokens',
      'mainProtocol',
      'depositUrl',
      'depositUrls',
      'explorerAddress',
      'activePrograms',
      'protocol',
      'liveCampaignsForCreator',
      'soonCampaignsForCreator',
      'pastCampaignsForCreator',
      'lastCampaignCreatedAt',
      'distributionType',
      'maxDailyRewards',
      'maxApr',
      'description',
      'howToSteps',
      'tags',
    ],
  ),
);
