import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  GraphQLList,
} from 'graphql';
import { listCampaigns } from '../reads/campaigns/list.js';
import { campaignIdParams, listCampaignsQuery, type ListCampaignsQuery } from '../reads/campaigns/schema.js';
import { listOpportunities } from '../reads/opportunities/listOpportunities.js';
import { opportunityIdParams, oppFiltersQuery, type PagedOppFilters } from '../reads/opportunities/schema.js';
import { listRewards } from '../reads/rewards/listRewards.js';
import { listRewardsQuery, type ListRewardsQuery } from '../reads/rewards/schema.js';
import { listUserRewards } from '../reads/users/listUserRewards.js';
import { userParams, userRewardsQuery, type UserRewardsQuery } from '../reads/users/schema.js';
import { checkArgs, inputTypeFromSchema, listArgs, paging, type ListArgs } from './args.js';
import { visibilityOf, type GraphqlContext } from './context.js';
import { campaignVisibilityOf } from '../visibility/campaignVisibility.js';
import { CampaignType, ChainRewardsType, OpportunityType, RewardType, costs, listOf, pageCosts } from './types.js';
import { resolveOpportunityId } from '../reads/opportunities/readContext.js';
import { pricesFields } from './prices.js';
import { totalsFields } from './totals.js';
import { programsFields } from './programs.js';

/** A by-id read: through the request's batch loader (one search per level), costing more than a plain field. */
const byIdCosts = costs({ cost: 2 });

/** Lists nest through their own fields in GraphQL, so the REST flags attaching them are left out. */
const OpportunityFilter = inputTypeFromSchema('OpportunityFilter', oppFiltersQuery, ['page', 'items', 'campaigns']);
const CampaignFilter = inputTypeFromSchema('CampaignFilter', listCampaignsQuery, ['page', 'items', 'withOpportunity']);

const UserType = new GraphQLObjectType<{ address: string }, GraphqlContext>({
  name: 'User',
  fields: () => ({
    address: { type: new GraphQLNonNull(GraphQLString) },
    rewards: {
      type: listOf(ChainRewardsType),
      description:
        "Rewards of the wallet per chain in the live root (as GET /v4/users/{address}/rewards); while a chain's live root has no stored tree, an error with extensions.code REWARD_TREE_UNAVAILABLE (chainId, root, treeStatus, retryAfter seconds), never an empty list",
      ...costs({ itemsFromList: 'chainId', searchesPerItem: 1 }),
      args: {
        chainId: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLInt))) },
        breakdownPage: { type: GraphQLInt, defaultValue: 0 },
        test: { type: GraphQLBoolean },
        claimableOnly: { type: GraphQLBoolean },
        type: { type: GraphQLString },
      },
      resolve: async (user, args: Record<string, unknown>, ctx) => {
        const q = checkArgs<UserRewardsQuery>(userRewardsQuery, {
          ...args,
          chainId: (args['chainId'] as number[]).map(String),
        });
        return listUserRewards(
          ctx.deps,
          ctx.proofs,
          user.address,
          q,
          await campaignVisibilityOf(ctx.deps, ctx.auth, true),
        );
      },
    },
  }),
});

/**
 * The GraphQL schema of /graphql/v1 (issue #8): opportunities, campaigns, rewards and users, and the
 * counts and totals of #33 (totals.ts). Lists
 * take the REST filters (input types generated from the same ajv schemas, which validate them) and
 * run the REST query functions; nested relations go through the per-request batch loaders.
 */
export function createGraphqlSchema(): GraphQLSchema {
  const query = new GraphQLObjectType<unknown, GraphqlContext>({
    name: 'Query',
    fields: {
      opportunities: {
        type: listOf(OpportunityType),
        description: 'Opportunities matching OPP-FILTERS, sorted and paged as GET /v4/opportunities',
        args: { filter: { type: OpportunityFilter }, ...paging },
        ...pageCosts,
        resolve: (_s, a: ListArgs, ctx) =>
          listOpportunities(ctx.deps, checkArgs<PagedOppFilters>(oppFiltersQuery, listArgs(a))),
      },
      opportunity: {
        type: OpportunityType,
        description: 'One opportunity by numeric or composite id (null when unknown)',
        args: { id: { type: new GraphQLNonNull(GraphQLID) } },
        ...byIdCosts,
        resolve: (_s, a: { id: string }, ctx) =>
          ctx.loaders.opportunityById.load(resolveOpportunityId(checkArgs<{ id: string }>(opportunityIdParams, a).id)),
      },
      campaigns: {
        type: listOf(CampaignType),
        description: 'Campaigns matching the filters of GET /v4/campaigns',
        args: { filter: { type: CampaignFilter }, ...paging },
        ...pageCosts,
        resolve: async (_s, a: ListArgs, ctx) => {
          const q = checkArgs<ListCampaignsQuery>(listCampaignsQuery, listArgs(a));
          return listCampaigns(ctx.deps, q, await visibilityOf(ctx, q.showPrivate));
        },
      },
      campaign: {
        type: CampaignType,
        description: 'One campaign by internal id or chainId-campaignId (null when unknown or private to the caller)',
        args: {
          id: { type: new GraphQLNonNull(GraphQLID) },
          showPrivate: {
            type: GraphQLBoolean,
            description: 'Also a private campaign the caller may read (as REST showPrivate)',
          },
        },
        ...byIdCosts,
        resolve: (_s, a: { id: string; showPrivate?: boolean | null }, ctx) => {
          const { id } = checkArgs<{ id: string }>(campaignIdParams, { id: a.id });
          return ctx.loaders.campaignById.load(`${a.showPrivate ? 1 : 0}|${id}`);
        },
      },
      rewards: {
        type: listOf(RewardType),
        description: 'Reward recipients of a campaign in the live root (as GET /v4/rewards)',
        args: {
          chainId: { type: new GraphQLNonNull(GraphQLInt) },
          campaignId: { type: new GraphQLNonNull(GraphQLString) },
          hide: { type: GraphQLBoolean },
          ...paging,
        },
        ...pageCosts,
        resolve: async (_s, a: Record<string, unknown>, ctx) => {
          const q = checkArgs<ListRewardsQuery>(listRewardsQuery, a);
          return (await listRewards(ctx.deps, q, await campaignVisibilityOf(ctx.deps, ctx.auth, true))).map((r) => ({
            ...r,
            chainId: q.chainId,
          }));
        },
      },
      user: {
        type: UserType,
        description: 'A wallet',
        args: { address: { type: new GraphQLNonNull(GraphQLString) } },
        resolve: (_s, a: { address: string }) => ({ address: checkArgs<{ address: string }>(userParams, a).address }),
      },
      ...totalsFields(CampaignFilter),
      ...pricesFields(),
      ...programsFields(),
    },
  });
  return new GraphQLSchema({ query });
}
