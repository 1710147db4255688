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
} from '../../reads/opportunities/responses.js';
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
} from '../../reads/opportunities/schema.js';

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
    describe({
      summary: 'Search opportunities (OPP-FILTERS, sorted, paged)',
      description:
        "Opportunities matching every OPP-FILTERS parameter, sorted by `sort` and `order`. `campaigns=true` embeds each opportunity's campaigns (slower).",
      response: opportunityListSchema,
    }),
    filters,
    listOpportunitiesHandler(deps),
  );
  router.get(
    '/opportunities/count',
    describe({
      summary: 'Count opportunities matching OPP-FILTERS',
      description: 'The number of opportunities matching OPP-FILTERS (paging parameters are accepted and ignored).',
      response: countSchema,
    }),
    filters,
    countOpportunitiesHandler(deps),
  );
  router.get(
    '/opportunities/summary',
    describe({
      summary:
        'Count, TVL and daily-rewards sums, APR range and the three distributions of OPP-FILTERS matches, in one answer',
      description:
        "What /count, /aggregate/tvl, /aggregate/dailyRewards, /aggregate/min|max/apr and the three /bins answer for the same OPP-FILTERS, in one response (one request for an explorer's header).",
      response: summarySchema,
    }),
    filters,
    summaryHandler(deps),
  );
  router.get(
    '/opportunities/bins/apr',
    describe({
      summary: 'APR distribution bins',
      description: 'The APR distribution of the matching opportunities as bins `{ min, max, count }`.',
      response: binsSchema,
    }),
    filters,
    binsHandler(deps, 'apr'),
  );
  router.get(
    '/opportunities/bins/tvl',
    describe({
      summary: 'TVL distribution bins',
      description: 'The TVL (USD) distribution of the matching opportunities as bins `{ min, max, count }`.',
      response: binsSchema,
    }),
    filters,
    binsHandler(deps, 'tvl'),
  );
  router.get(
    '/opportunities/bins/daily-rewards',
    describe({
      summary: 'Daily-rewards distribution bins',
      description: 'The daily-rewards (USD) distribution of the matching opportunities as bins `{ min, max, count }`.',
      response: binsSchema,
    }),
    filters,
    binsHandler(deps, 'dailyRewards'),
  );
  router.get(
    '/opportunities/aggregate/max/:field',
    describe({
      summary: 'Maximum of a field over OPP-FILTERS matches',
      description:
        'The largest value of `field` (any field of /aggregate/{field}) among the opportunities matching OPP-FILTERS: a decimal string for apr, tvl, dailyRewards and chainId, the last protocol slug or tag in text order for protocolId and tags; null when none match.',
      response: extremumSchema('max'),
    }),
    validate({ params: extremumParams, query: oppFiltersQuery }),
    extremumHandler(deps, 'max'),
  );
  router.get(
    '/opportunities/aggregate/min/:field',
    describe({
      summary: 'Minimum of a field over OPP-FILTERS matches',
      description:
        'The smallest value of `field` (any field of /aggregate/{field}) among the opportunities matching OPP-FILTERS: a decimal string for apr, tvl, dailyRewards and chainId, the first protocol slug or tag in text order for protocolId and tags; null when none match.',
      response: extremumSchema('min'),
    }),
    validate({ params: extremumParams, query: oppFiltersQuery }),
    extremumHandler(deps, 'min'),
  );
  router.get(
    '/opportunities/aggregate/:field',
    describe({
      summary: 'Sum of a numeric field, or groups by chainId, protocolId or tags',
      description:
        'For a numeric `field` (tvl, dailyRewards…), its sum over the matching opportunities; for `chainId`, `protocolId` or `tags`, the matching opportunities grouped by that field with a count per group (opportunities without a protocol are in no protocolId group).',
      response: aggregateSchema,
    }),
    validate({ params: aggregateParams, query: oppFiltersQuery }),
    aggregateHandler(deps),
  );
  router.get(
    '/opportunities/:id',
    describe({
      summary: 'One opportunity by id',
      description: 'One opportunity by internal id or composite `chainId-type-identifier`.',
      response: opportunitySchema,
    }),
    byId({ type: 'object', additionalProperties: false, properties: {} }),
    getOpportunityHandler(deps),
  );
  router.get(
    '/opportunities/:id/campaigns',
    describe({
      summary: 'One opportunity with its campaigns',
      description:
        'One opportunity with its campaigns under `campaigns`; `test`, `point`, `tokenTypes` and `excludeSubCampaigns` filter the campaigns.',
      response: opportunityWithCampaignsSchema,
    }),
    byId(opportunityCampaignsQuery),
    opportunityCampaignsHandler(deps),
  );
  router.get(
    '/opportunities/:id/storing-ids',
    describe({
      summary: 'Storing ids of the opportunity campaigns, as trees',
      description:
        'One tree per root campaign of the opportunity whose status is `campaignStatus` (default LIVE); each node has its `storingIds` and its `subCampaigns` (not status-filtered).',
      response: arr(storingIdsNodeSchema),
    }),
    byId(storingIdsQuery),
    storingIdsHandler(deps),
  );
  router.get(
    '/opportunities/:id/apr-records',
    describe({
      summary: 'APR history (JSON, or CSV with format=csv or Accept: text/csv)',
      description:
        "The opportunity's APR history between `from` and `to` (Unix seconds) at `grain` resolution (each UTC bucket the time-weighted mean of its snapshots: a snapshot's value holds until the next one), newest bucket first (`page`, `items` page through them). `format=csv` (or, without `format`, `Accept: text/csv`) answers CSV rows instead of JSON; a download link should name `format`.",
      response: recordsSchema('apr'),
      also: CSV,
    }),
    byId(recordsQuery),
    recordsHandler(deps, 'apr'),
  );
  router.get(
    '/opportunities/:id/tvl-records',
    describe({
      summary: 'TVL history (JSON, or CSV with format=csv or Accept: text/csv)',
      description:
        "The opportunity's TVL history (USD) between `from` and `to` (Unix seconds) at `grain` resolution (each UTC bucket the time-weighted mean of its snapshots: a snapshot's value holds until the next one), newest bucket first (`page`, `items` page through them). `format=csv` (or, without `format`, `Accept: text/csv`) answers CSV rows instead of JSON; a download link should name `format`.",
      response: recordsSchema('tvl'),
      also: CSV,
    }),
    byId(recordsQuery),
    recordsHandler(deps, 'tvl'),
  );
  router.get(
    '/opportunities/:id/native-apr-records',
    describe({
      summary: 'Native APR history (JSON, or CSV with format=csv or Accept: text/csv)',
      description:
        "The opportunity's native (protocol) APR history between `from` and `to` (Unix seconds) at `grain` resolution (each UTC bucket the time-weighted mean of its snapshots: a snapshot's value holds until the next one; a snapshot whose native APR was unknown, `nativeAprRecord.status` other than `ok`, weighs nothing, and a bucket of unknowns is `apr: null`), newest bucket first (`page`, `items` page through them). `format=csv` (or, without `format`, `Accept: text/csv`) answers CSV rows instead of JSON; a download link should name `format`.",
      response: recordsSchema('apr'),
      also: CSV,
    }),
    byId(recordsQuery),
    recordsHandler(deps, 'native_apr'),
  );
  router.get(
    '/opportunities/:id/daily-rewards-records',
    describe({
      summary: 'Daily-rewards history in USD per day (JSON, or CSV with format=csv or Accept: text/csv)',
      description:
        "The opportunity's daily rewards (USD per day, the sum over its live public campaigns at each snapshot's prices) between `from` and `to` (Unix seconds) at `grain` resolution (each UTC bucket the time-weighted mean of its snapshots: a snapshot's value holds until the next one), newest bucket first (`page`, `items` page through them). `format=csv` (or, without `format`, `Accept: text/csv`) answers CSV rows instead of JSON; a download link should name `format`.",
      response: recordsSchema('dailyRewards'),
      also: CSV,
    }),
    byId(recordsQuery),
    recordsHandler(deps, 'daily_rewards'),
  );
  return router;
}
