import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { listPrices, loadPriceHistory } from '../reads/prices/priceReads.js';
import {
  listPricesQuery,
  priceHistoryQuery,
  type ListPricesQuery,
  type PriceHistoryQuery,
} from '../reads/prices/schema.js';
import { checkArgs, inputTypeFromSchema, listArgs, paging, type ListArgs } from './args.js';
import type { GraphqlContext } from './context.js';
import { nullWhenNotFound } from './formatError.js';
import { costs, listOf, nonNull, pageCosts, plain } from './types.js';

/**
 * Estimated candles of a price history: a year of days (the default window). The real bound is
 * MAX_HISTORY_DAYS (3,660 days, 2,208 hours), but candles are scalars read in one query, so an
 * underestimate costs serialization only (as RECORD_LIST_ESTIMATE in types.ts).
 */
const CANDLES_ESTIMATE = 366;

const S = GraphQLString,
  I = GraphQLInt,
  F = GraphQLFloat;

const PriceType = new GraphQLObjectType({
  name: 'Price',
  description: 'The current USD price of a token (as GET /v4/prices): `price` null when stale',
  fields: plain({
    tokenId: nonNull(S),
    chainId: nonNull(I),
    address: nonNull(S),
    symbol: nonNull(S),
    price: F,
    updatedAt: nonNull(F),
    source: nonNull(S),
    stale: nonNull(GraphQLBoolean),
  }),
});

const PriceCandleType = new GraphQLObjectType({
  name: 'PriceCandle',
  description: "A token's USD price over one bucket (as GET /v4/prices/history)",
  fields: plain({
    day: nonNull(I),
    timestamp: nonNull(S),
    date: nonNull(S),
    open: nonNull(F),
    close: nonNull(F),
    min: nonNull(F),
    max: nonNull(F),
    source: S,
  }),
});

/** Root fields of the #33 prices, answered by the REST routes' own functions (same validation and figures). */
export function pricesFields(): GraphQLFieldConfigMap<unknown, GraphqlContext> {
  const PriceFilter = inputTypeFromSchema('PriceFilter', listPricesQuery, ['page', 'items']);
  return {
    prices: {
      type: listOf(PriceType),
      description: 'Current USD prices of the priced tokens matching the filters, by chain and symbol (GET /v4/prices)',
      args: { filter: { type: PriceFilter }, ...paging },
      ...pageCosts,
      resolve: (_s, a: ListArgs, ctx) => listPrices(ctx.deps, checkArgs<ListPricesQuery>(listPricesQuery, listArgs(a))),
    },
    priceHistory: {
      type: new GraphQLList(nonNull(PriceCandleType)),
      description:
        "A token's USD price per `grain` bucket between the Unix days `from` and `to`, oldest first (GET /v4/prices/history); the token by `chainId` + `address` or `symbol`; null where REST answers 404 (no such token)",
      args: {
        chainId: { type: I },
        address: { type: S },
        symbol: { type: S },
        from: { type: I, description: 'A Unix day (days since 1970-01-01 UTC), not Unix seconds' },
        to: { type: I, description: 'A Unix day, included (default today)' },
        grain: { type: S, description: 'hour (the last 90 days are kept), day (default), week (from Monday) or month' },
      },
      ...costs({ maxItems: CANDLES_ESTIMATE, searches: 1 }),
      resolve: (_s, a: Record<string, unknown>, ctx) =>
        nullWhenNotFound(() => loadPriceHistory(ctx.deps, checkArgs<PriceHistoryQuery>(priceHistoryQuery, a))),
    },
  };
}
