import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type { GraphqlContext } from './context.js';
import type { CostExtensions } from './limits.js';
import { MAX_NESTED_CAMPAIGNS } from './loaders.js';
import type { CampaignRecord, OpportunityRecord } from '../../domain/documents/records.js';
import { BREAKDOWN_PAGE_SIZE } from '../reads/users/serialize.js';

/** Any JSON value (nested records kept as the REST API serializes them). */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value, as the REST API serializes it',
});

const nonNull = <T extends GraphQLOutputType>(t: T) => new GraphQLNonNull(t);
const listOf = <T extends GraphQLOutputType>(t: T) => nonNull(new GraphQLList(nonNull(t)));
/** Plain fields read by name from the REST record: `name: type`. */
const plain = (fields: Record<string, GraphQLOutputType>): GraphQLFieldConfigMap<unknown, GraphqlContext> =>
  Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, { type }]));

/** Cost facts of a field for the limits rule (limits.ts). */
const costs = (extensions: CostExtensions) => ({ extensions });
/** A REST page: `items` 20 when absent, at most 100; one search of its own. */
const pageCosts = costs({ defaultItems: 20, maxListItems: 100, searches: 1 });
/**
 * Estimated bound of lists read from a stored record with no cap of their own (no request is made
 * per item, so an underestimate costs serialization only): an opportunity's tokens, a wallet's reward
 * tokens on one chain.
 */
const RECORD_LIST_ESTIMATE = 20;

/** Reward tokens (ids) the record's apr and dailyRewards leave out for want of a price; [] when all are priced (REST omits it then). */
const unpricedRewardTokens = {
  type: nonNull(new GraphQLList(nonNull(GraphQLString))),
  description: 'Reward token ids that apr and dailyRewards leave out for want of a fresh price (they count as 0 there)',
  resolve: (r: { unpricedRewardTokens?: string[] }) => r.unpricedRewardTokens ?? [],
};

const S = GraphQLString,
  I = GraphQLInt,
  F = GraphQLFloat,
  B = GraphQLBoolean;

export const ChainType = new GraphQLObjectType({
  name: 'Chain',
  fields: plain({
    id: nonNull(I),
    name: nonNull(S),
    icon: nonNull(S),
    liveCampaigns: nonNull(F),
    endOfDisputePeriod: nonNull(F),
    lastClaimsOnchainFetchTimestamp: S,
  }),
});

export const TokenType = new GraphQLObjectType({
  name: 'Token',
  fields: plain({
    id: nonNull(S),
    name: S,
    chainId: nonNull(I),
    address: nonNull(S),
    decimals: nonNull(I),
    symbol: nonNull(S),
    icon: nonNull(S),
    verified: nonNull(B),
    isNative: nonNull(B),
    isTest: nonNull(B),
    type: nonNull(S),
    price: F,
    updatedAt: F,
    priceSource: S,
    displaySymbol: S,
  }),
});

export const CampaignType: GraphQLObjectType = new GraphQLObjectType<CampaignRecord, GraphqlContext>({
  name: 'Campaign',
  fields: () => ({
    ...plain({
      id: nonNull(S),
      computeChainId: nonNull(I),
      distributionChainId: nonNull(I),
      campaignId: nonNull(S),
      type: nonNull(S),
      subType: F,
      amount: nonNull(S),
      startTimestamp: nonNull(S),
      endTimestamp: nonNull(S),
      creatorAddress: nonNull(S),
      apr: nonNull(F),
      dailyRewards: nonNull(F),
      description: S,
      rewardTokenId: nonNull(S),
      rewardToken: nonNull(TokenType),
      opportunityId: nonNull(S),
      chain: ChainType,
      distributionChain: ChainType,
      distributionType: S,
      createdAt: nonNull(S),
      rootCampaignId: S,
      parentCampaignId: S,
      childCampaignIds: listOf(S),
      isPrivate: B,
      hidden: B,
      params: JsonScalar,
      campaignStatus: JsonScalar,
      creator: JsonScalar,
      dailyRewardsBreakdown: JsonScalar,
    }),
    unpricedRewardTokens,
    opportunity: {
      type: OpportunityType,
      description: 'The opportunity of the campaign (batched per request)',
      resolve: (c, _a, ctx) => ctx.loaders.opportunityById.load(c.opportunityId),
    },
  }),
});

const ActiveProgramType = new GraphQLObjectType({
  name: 'ActiveProgram',
  description: "A program an opportunity belongs to (its slug is in the opportunity's programSlugs)",
  fields: plain({ id: nonNull(S), name: nonNull(S), slug: S, description: S, icon: S }),
});

export const OpportunityType: GraphQLObjectType = new GraphQLObjectType<
  OpportunityRecord & { campaigns?: CampaignRecord[] },
  GraphqlContext
>({
  name: 'Opportunity',
  fields: () => ({
    ...plain({
      id: nonNull(S),
      chainId: nonNull(I),
      type: nonNull(S),
      identifier: nonNull(S),
      name: nonNull(S),
      description: S,
      howToSteps: listOf(S),
      status: nonNull(S),
      action: S,
      tags: listOf(S),
      mainProtocol: S,
      depositUrl: S,
      explorerAddress: S,
      hidden: B,
      tvl: nonNull(F),
      apr: nonNull(F),
      dailyRewards: nonNull(F),
      nativeApr: F,
      totalApr: F,
      maxDailyRewards: F,
      maxApr: F,
      liveCampaigns: nonNull(F),
      earliestCampaignStart: S,
      latestCampaignStart: S,
      earliestCampaignEnd: S,
      latestCampaignEnd: S,
      distributionType: S,
      chain: ChainType,
      protocol: JsonScalar,
      aprRecord: JsonScalar,
      tvlRecord: JsonScalar,
      rewardsRecord: JsonScalar,
      nativeAprRecord: JsonScalar,
    }),
    unpricedRewardTokens,
    tvlStatus: {
      type: nonNull(S),
      description:
        "Whether tvl is known (tvlRecord.status, #42): ok, or unknown (tvl and apr then 0 as the REST record's numbers, not zero) because unsupported-target, read-failed, unpriced or not-computed",
      resolve: (r: { tvlRecord: { status?: string } }) => r.tvlRecord.status ?? 'ok',
    },
    tokens: { type: listOf(TokenType), ...costs({ maxItems: RECORD_LIST_ESTIMATE }) },
    activePrograms: {
      type: listOf(ActiveProgramType),
      description: 'The programs the opportunity belongs to (GET /v4/programs/{idOrSlug} for their figures)',
      ...costs({ maxItems: RECORD_LIST_ESTIMATE }),
    },
    campaigns: {
      type: listOf(CampaignType),
      description: `Campaigns of the opportunity, newest first, at most ${MAX_NESTED_CAMPAIGNS} (batched per request)`,
      ...costs({ maxItems: MAX_NESTED_CAMPAIGNS }),
      resolve: (o, _a, ctx) => o.campaigns ?? ctx.loaders.campaignsByOpportunity.load(o.id),
    },
  }),
});

type RewardRow = { chainId: number; campaignId: string };

export const RewardType = new GraphQLObjectType<RewardRow, GraphqlContext>({
  name: 'Reward',
  description: 'A reward recipient of a campaign in the live root',
  fields: () => ({
    ...plain({
      recipient: nonNull(S),
      campaignId: nonNull(S),
      reason: nonNull(S),
      rewardTokenAddress: nonNull(S),
      amount: nonNull(S),
      claimed: nonNull(S),
      pending: nonNull(S),
    }),
    campaign: {
      type: CampaignType,
      resolve: (r, _a, ctx) => ctx.loaders.campaignByOnChainId.load(`${r.chainId}:${r.campaignId}`),
    },
  }),
});

const UserRewardBreakdownType = new GraphQLObjectType<RewardRow, GraphqlContext>({
  name: 'UserRewardBreakdown',
  fields: () => ({
    ...plain({
      reason: nonNull(S),
      amount: nonNull(S),
      claimed: nonNull(S),
      pending: nonNull(S),
      campaignId: nonNull(S),
      campaignStatus: S,
    }),
    campaign: {
      type: CampaignType,
      description: 'The campaign paying this part (batched per request)',
      resolve: (b, _a, ctx) => ctx.loaders.campaignByOnChainId.load(`${b.chainId}:${b.campaignId}`),
    },
  }),
});

const UserRewardTokenType = new GraphQLObjectType({
  name: 'UserRewardToken',
  fields: plain({ address: nonNull(S), chainId: nonNull(I), symbol: nonNull(S), decimals: nonNull(I) }),
});

type UserRewardRow = { token: { chainId: number }; breakdowns: { campaignId: string }[] };

export const UserRewardType = new GraphQLObjectType<UserRewardRow, GraphqlContext>({
  name: 'UserReward',
  fields: () => ({
    ...plain({
      root: nonNull(S),
      recipient: nonNull(S),
      proofs: listOf(S),
      token: nonNull(UserRewardTokenType),
      amount: nonNull(S),
      claimed: nonNull(S),
      pending: nonNull(S),
    }),
    breakdowns: {
      type: listOf(UserRewardBreakdownType),
      ...costs({ maxItems: BREAKDOWN_PAGE_SIZE }),
      resolve: (r) => r.breakdowns.map((b) => ({ ...b, chainId: r.token.chainId })),
    },
  }),
});

export const ChainRewardsType = new GraphQLObjectType({
  name: 'ChainRewards',
  fields: () => ({
    ...plain({ chain: ChainType }),
    rewards: { type: listOf(UserRewardType), ...costs({ maxItems: RECORD_LIST_ESTIMATE }) },
  }),
});

export { costs, listOf, nonNull, pageCosts, plain };
