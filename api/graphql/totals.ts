import {
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLInputObjectType,
} from 'graphql';
import { countCampaigns } from '../reads/campaigns/count.js';
import { countCampaignsQuery, type CountCampaignsQuery, type CountGroup } from '../reads/campaigns/schema.js';
import { DISTRIBUTED_GROUPS, distributedRows, groupDistributed } from '../reads/reward-totals/distributed.js';
import { totalsOf, unclaimedOf } from '../reads/reward-totals/liveTotals.js';
import {
  distributedQuery,
  rewardTotalsQuery,
  unclaimQuery,
  type DistributedQuery,
  type RewardTotalsQuery,
  type UnclaimQuery,
} from '../reads/reward-totals/schema.js';
import { checkArgs, inputTypeFromSchema } from './args.js';
import { toBuckets } from './buckets.js';
import { visibilityOf, type GraphqlContext } from './context.js';
import { nullWhenNotFound } from './formatError.js';
import { costs, listOf, nonNull, plain } from './types.js';

/**
 * Estimated buckets of a count or total: chains, types and protocols are tens, months since the
 * first campaign about a hundred. No request is made per bucket (three scalars each), so an
 * underestimate costs serialization only (as RECORD_LIST_ESTIMATE in types.ts).
 */
const BUCKETS_ESTIMATE = 200;
/** Items of a rewardsUnclaimed answer: the REST list's bound (more only when values are comma lists; scalars each). */
const UNCLAIMED_ESTIMATE = 100;
/** An aggregation of its own (an Elasticsearch count or a PostgreSQL rollup read), not batched: it counts as a search. */
const aggregateCosts = costs({ searches: 1 });

const S = GraphQLString;
const I = GraphQLInt;

const TotalsGroup = new GraphQLEnumType({
  name: 'TotalsGroup',
  description: 'What a count or total is grouped by (the REST routes /by-chains, /by-types, /by-protocols)',
  values: {
    CHAINS: {
      value: 'chains',
      description: 'Chain id (the compute chain for counts, the distribution chain for distributed rewards)',
    },
    TYPES: { value: 'types', description: 'Campaign type name' },
    PROTOCOLS: { value: 'protocols', description: 'Main protocol id' },
  },
});

const groupArgs = {
  by: { type: TotalsGroup, description: 'One bucket per key instead of the total' },
  grain: { type: S, description: '`month`: one bucket per UTC month (`YYYY-MM`, in order), as REST `grain=month`' },
};
type GroupArgs = { filter?: Record<string, unknown> | null; by?: CountGroup | null; grain?: string | null };
const filterOf = (a: GroupArgs) => ({ ...(a.filter ?? {}), grain: a.grain });

const CampaignCountBucketType = new GraphQLObjectType({
  name: 'CampaignCountBucket',
  description: 'Campaigns counted in one creation month and/or under one key (both null for the total)',
  fields: plain({ month: S, key: S, count: nonNull(I) }),
});

const DistributedBucketType = new GraphQLObjectType({
  name: 'DistributedBucket',
  description: 'USD the live roots distributed in one month and/or under one key (both null for the total)',
  fields: plain({ month: S, key: S, usd: nonNull(GraphQLFloat) }),
});

const RewardsTotalType = new GraphQLObjectType({
  name: 'RewardsTotal',
  description: 'Total earned of a campaign or a token in the live root (as GET /v4/rewards/total)',
  fields: plain({ chainId: nonNull(I), campaignId: S, token: S, rewardTokenId: S, root: S, amount: nonNull(S) }),
});

const RewardsCountType = new GraphQLObjectType({
  name: 'RewardsCount',
  description: 'Recipients of a campaign or a token in the live root (as GET /v4/rewards/count)',
  fields: plain({ chainId: nonNull(I), campaignId: S, token: S, rewardTokenId: S, root: S, count: nonNull(I) }),
});

const UnclaimedRewardsType = new GraphQLObjectType({
  name: 'UnclaimedRewards',
  description:
    'Earned in the live root and not claimed on chain, of one campaign or of the token (as GET /v4/rewards/unclaim)',
  fields: plain({ campaignId: S, token: S, amount: nonNull(S) }),
});

const liveTotalArgs = {
  chainId: { type: nonNull(I) },
  campaignId: { type: S, description: 'The on-chain campaign id (or give token)' },
  token: { type: S, description: 'The reward token address (or give campaignId)' },
};

/** A live total, null where REST answers 404 (a campaign unknown, or private to the caller: the same answer). */
const liveTotal = (ctx: GraphqlContext, args: Record<string, unknown>) =>
  nullWhenNotFound(() => totalsOf(ctx.deps, checkArgs<RewardTotalsQuery>(rewardTotalsQuery, args), ctx.auth));

/**
 * Root fields of the #33 totals and counts, each answered by its REST route's own function (the
 * same figures, visibility and validation): campaign counts, distributed rewards, a campaign's or
 * token's live totals and unclaimed amounts. `campaignFilter` is the `campaigns` field's input type.
 */
export function totalsFields(campaignFilter: GraphQLInputObjectType): GraphQLFieldConfigMap<unknown, GraphqlContext> {
  // The window and campaign filters of /rewards/total/distributed; `since` is hosted's spelling of `from`.
  const DistributedFilter = inputTypeFromSchema('DistributedFilter', distributedQuery, [
    'grain',
    'since',
    'withOpportunity',
  ]);
  return {
    campaignCounts: {
      type: listOf(CampaignCountBucketType),
      description:
        'Campaigns the `campaigns` field lists for the same filters (every page): one bucket for the total (GET /v4/campaigns/count), per key with `by` (per compute chain, type name or main protocol: /count/by-…), per creation month with `grain`',
      args: { filter: { type: campaignFilter }, ...groupArgs },
      ...costs({ maxItems: BUCKETS_ESTIMATE, searches: 1 }),
      resolve: async (_s, a: GroupArgs, ctx) => {
        const q = checkArgs<CountCampaignsQuery>(countCampaignsQuery, filterOf(a));
        const body = await countCampaigns(ctx.deps, q, await visibilityOf(ctx, q.showPrivate), a.by ?? undefined);
        return toBuckets(body, Boolean(a.by), Boolean(q.grain)).map(({ value, ...b }) => ({ ...b, count: value }));
      },
    },
    distributedRewards: {
      type: listOf(DistributedBucketType),
      description:
        'USD the live roots distributed over the window `from`..`to` to the campaigns the filters keep (GET /v4/rewards/total/distributed): one bucket for the total, per key with `by` (distribution chain, type, main protocol or `none`: /by-…), per month with `grain`',
      args: { filter: { type: DistributedFilter }, ...groupArgs },
      ...costs({ maxItems: BUCKETS_ESTIMATE, searches: 1 }),
      resolve: async (_s, a: GroupArgs, ctx) => {
        const q = checkArgs<DistributedQuery>(distributedQuery, filterOf(a));
        const { rows } = await distributedRows(ctx.deps, q, await visibilityOf(ctx, q.showPrivate), 'type');
        const body = groupDistributed(rows, a.by ? DISTRIBUTED_GROUPS[a.by] : null);
        return toBuckets(body, Boolean(a.by), Boolean(q.grain)).map(({ value, ...b }) => ({ ...b, usd: value }));
      },
    },
    rewardsTotal: {
      type: RewardsTotalType,
      description:
        'Total earned of a campaign (or a token) in the live root (GET /v4/rewards/total); null where REST answers 404',
      args: liveTotalArgs,
      ...aggregateCosts,
      // The type has no `count`: GraphQL serves the REST /total fields of the shared answer.
      resolve: (_s, a: Record<string, unknown>, ctx) => liveTotal(ctx, a),
    },
    rewardsCount: {
      type: RewardsCountType,
      description:
        'Recipients of a campaign (or a token) in the live root (GET /v4/rewards/count); null where REST answers 404',
      args: liveTotalArgs,
      ...aggregateCosts,
      resolve: (_s, a: Record<string, unknown>, ctx) => liveTotal(ctx, a),
    },
    rewardsUnclaimed: {
      type: listOf(UnclaimedRewardsType),
      description:
        'Earned in the live root minus claimed on chain, per campaign of `campaignIds` or for `token` (GET /v4/rewards/unclaim); campaigns unknown or hidden from the caller are left out',
      args: {
        chainId: { type: nonNull(I) },
        campaignIds: { type: new GraphQLList(nonNull(S)), description: 'On-chain campaign ids (or give token)' },
        token: { type: S, description: 'The reward token address (or give campaignIds)' },
      },
      ...costs({ maxItems: UNCLAIMED_ESTIMATE, searches: 1 }),
      resolve: async (_s, a: Record<string, unknown>, ctx) => {
        const q = checkArgs<UnclaimQuery>(unclaimQuery, a);
        const amounts = Object.entries(await unclaimedOf(ctx.deps, q, ctx.auth));
        return amounts.map(([id, amount]) =>
          q.token !== undefined ? { campaignId: null, token: id, amount } : { campaignId: id, token: null, amount },
        );
      },
    },
  };
}
