import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { describe } from '../../openapi/describe.js';
import { opportunitySchema } from '../../openapi/records.js';
import { validate } from '../../validate.js';
import {
  aggregateSchema,
  binsSchema,
  countSchema,
  extremumSchema,
  opportunityListSchema,
  opportunityWithCampaignsSchema,
  recordsSchema,
  storingIdsNodeSchema,
} from './responses.js';
import { arr } from '../../openapi/schemaHelpers.js';

const CSV = { 'text/csv': { type: 'string', description: 'timestamp,date,<metric> rows after a header row' } };
import { summaryHandler, summarySchema } from './summary.js';
import {
  aggregateHandler,
  binsHandler,
  countOpportunitiesHandler,
  extremumHandler,
  listOpportunitiesHandler,
} from './handlers.js';
import { getOpportunityHandler, opportunityCampaignsHandler, recordsHandler, storingIdsHandler } from './idHandlers.js';
import {
  aggregateParams,
  extremumParams,
  opportunityCampaignsQuery,
  opportunityIdParams,
  oppFiltersQuery,
  recordsQuery,
  storingIdsQuery,
} from './schema.js';

/**
 * /v4/opportunities routes (read API issue): list, count, bins, aggregates over OPP-FILTERS on the
 * read alias <prefix>-opportunities; by-id reads, storing-id trees and history records.
 */
export function opportunitiesRouter(deps: ApiDeps): Router {
  const router = new Router();
  const filters = validate({ query: oppFiltersQuery });
  const byId = (query: Record<string, unknown>) => validate({ params: opportunityIdParams, query });
  router.get(
    ['/opportunities', '/opportunities/'],
    describe({ summary: 'Search opportunities (OPP-FILTERS, sorted, paged)', response: opportunityListSchema }),
    filters,
    listOpportunitiesHandler(deps),
  );
  router.get(
    '/opportunities/count',
    describe({ summary: 'Count opportunities matching OPP-FILTERS', response: countSchema }),
    filters,
    countOpportunitiesHandler(deps),
  );
  router.get(
    '/opportunities/summary',
    describe({
      summary:
        'Count, TVL and daily-rewards sums, APR range and the three distributions of OPP-FILTERS matches, in one answer',
      response: summarySchema,
    }),
    filters,
    summaryHandler(deps),
  );
  router.get(
    '/opportunities/bins/apr',
    describe({ summary: 'APR distribution bins', response: binsSchema }),
    filters,
    binsHandler(deps, 'apr'),
  );
  router.get(
    '/opportunities/bins/tvl',
    describe({ summary: 'TVL distribution bins', response: binsSchema }),
    filters,
    binsHandler(deps, 'tvl'),
  );
  router.get(
    '/opportunities/bins/daily-rewards',
    describe({ summary: 'Daily-rewards distribution bins', response: binsSchema }),
    filters,
    binsHandler(deps, 'dailyRewards'),
  );
  router.get(
    '/opportunities/aggregate/max/:field',
    describe({ summary: 'Maximum of a numeric field over OPP-FILTERS matches', response: extremumSchema('max') }),
    validate({ params: extremumParams, query: oppFiltersQuery }),
    extremumHandler(deps, 'max'),
  );
  router.get(
    '/opportunities/aggregate/min/:field',
    describe({ summary: 'Minimum of a numeric field over OPP-FILTERS matches', response: extremumSchema('min') }),
    validate({ params: extremumParams, query: oppFiltersQuery }),
    extremumHandler(deps, 'min'),
  );
  router.get(
    '/opportunities/aggregate/:field',
    describe({
      summary: 'Sum of a numeric field, or groups by chainId, protocolId or tags',
      response: aggregateSchema,
    }),
    validate({ params: aggregateParams, query: oppFiltersQuery }),
    aggregateHandler(deps),
  );
  router.get(
    '/opportunities/:id',
    describe({ summary: 'One opportunity by id', response: opportunitySchema }),
    byId({ type: 'object', additionalProperties: false, properties: {} }),
    getOpportunityHandler(deps),
  );
  router.get(
    '/opportunities/:id/campaigns',
    describe({ summary: 'One opportunity with its campaigns', response: opportunityWithCampaignsSchema }),
    byId(opportunityCampaignsQuery),
    opportunityCampaignsHandler(deps),
  );
  router.get(
    '/opportunities/:id/storing-ids',
    describe({ summary: 'Storing ids of the opportunity campaigns, as trees', response: arr(storingIdsNodeSchema) }),
    byId(storingIdsQuery),
    storingIdsHandler(deps),
  );
  router.get(
    '/opportunities/:id/apr-records',
    describe({
      summary: 'APR history (JSON, or CSV with Accept: text/csv)',
      response: recordsSchema('apr'),
      also: CSV,
    }),
    byId(recordsQuery),
    recordsHandler(deps, 'apr'),
  );
  router.get(
    '/opportunities/:id/tvl-records',
    describe({
      summary: 'TVL history (JSON, or CSV with Accept: text/csv)',
      response: recordsSchema('tvl'),
      also: CSV,
    }),
    byId(recordsQuery),
    recordsHandler(deps, 'tvl'),
  );
  router.get(
    '/opportunities/:id/native-apr-records',
    describe({
      summary: 'Native APR history (JSON, or CSV with Accept: text/csv)',
      response: recordsSchema('apr'),
      also: CSV,
    }),
    byId(recordsQuery),
    recordsHandler(deps, 'native_apr'),
  );
  return router;
}
