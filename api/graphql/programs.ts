import {
  GraphQLFloat,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { getProgram, listPrograms } from '../reads/programs/programRecords.js';
import { listProgramsQuery, programParams, type ListProgramsQuery } from '../reads/programs/schema.js';
import { checkArgs, paging } from './args.js';
import type { GraphqlContext } from './context.js';
import { costs, listOf, nonNull, OpportunityType, plain } from './types.js';

/**
 * Estimated opportunities of one program for the cost rule: they come with the program (no search per item), so an
 * underestimate costs serialization only (as RECORD_LIST_ESTIMATE in types.ts).
 */
const MEMBERS_ESTIMATE = 20;

const S = GraphQLString,
  I = GraphQLInt,
  F = GraphQLFloat;

const ProgramType = new GraphQLObjectType({
  name: 'Program',
  description:
    'An incentive program (as GET /v4/programs/{idOrSlug}): its opportunities and totals summed over them (public campaigns only)',
  fields: () => ({
    ...plain({
      id: nonNull(S),
      name: nonNull(S),
      slug: nonNull(S),
      description: nonNull(S),
      icon: nonNull(S),
      dailyRewards: nonNull(F),
      liveCampaigns: nonNull(F),
      tvl: nonNull(F),
      opportunitiesCount: nonNull(I),
      campaignsCount: nonNull(I),
    }),
    opportunities: { type: listOf(OpportunityType), ...costs({ maxItems: MEMBERS_ESTIMATE }) },
  }),
});

/** Root fields `programs` and `program`, answered by the REST routes' own functions (same validation and figures). */
export function programsFields(): GraphQLFieldConfigMap<unknown, GraphqlContext> {
  return {
    programs: {
      type: listOf(ProgramType),
      description:
        'Programs by name, filtered by `name` (substring) and `slugs` (comma list), paged as GET /v4/programs',
      args: { name: { type: S }, slugs: { type: S }, ...paging },
      ...costs({ defaultItems: 20, maxListItems: 50, searches: 2 }),
      resolve: (_s, a: Record<string, unknown>, ctx) =>
        listPrograms(ctx.deps, checkArgs<ListProgramsQuery>(listProgramsQuery, a)),
    },
    program: {
      type: ProgramType,
      description: 'One program by id (uuid) or slug (null when unknown)',
      args: { idOrSlug: { type: new GraphQLNonNull(S) } },
      ...costs({ cost: 2, searches: 2 }),
      resolve: (_s, a: { idOrSlug: string }, ctx) =>
        getProgram(ctx.deps, checkArgs<{ idOrSlug: string }>(programParams, a).idOrSlug),
    },
  };
}
