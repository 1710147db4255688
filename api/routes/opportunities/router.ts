import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { aggregateHandler, binsHandler, countOpportunitiesHandler, extremumHandler, listOpportunitiesHandler } from './handlers.js';
import { getOpportunityHandler, opportunityCampaignsHandler, recordsHandler, storingIdsHandler } from './idHandlers.js';
import { aggregateParams, extremumParams, opportunityCampaignsQuery, opportunityIdParams, oppFiltersQuery, recordsQuery, storingIdsQuery } from './schema.js';

/**
 * /v4/opportunities routes (read API issue): list, count, bins, aggregates over OPP-FILTERS on the
 * read alias <prefix>-opportunities; by-id reads, storing-id trees and history records.
 */
export function opportunitiesRouter(deps: ApiDeps): Router {
  const router = new Router();
  const filters = validate({ query: oppFiltersQuery });
  const byId = (query: Record<string, unknown>) => validate({ params: opportunityIdParams, query });
  router.get(['/opportunities', '/opportunities/'], filters, listOpportunitiesHandler(deps));
  router.get('/opportunities/count', filters, countOpportunitiesHandler(deps));
  router.get('/opportunities/bins/apr', filters, binsHandler(deps, 'apr'));
  router.get('/opportunities/bins/tvl', filters, binsHandler(deps, 'tvl'));
  router.get('/opportunities/bins/daily-rewards', filters, binsHandler(deps, 'dailyRewards'));
  router.get('/opportunities/aggregate/max/:field', validate({ params: extremumParams, query: oppFiltersQuery }), extremumHandler(deps, 'max'));
  router.get('/opportunities/aggregate/min/:field', validate({ params: extremumParams, query: oppFiltersQuery }), extremumHandler(deps, 'min'));
  router.get('/opportunities/aggregate/:field', validate({ params: aggregateParams, query: oppFiltersQuery }), aggregateHandler(deps));
  router.get('/opportunities/:id', byId({ type: 'object', additionalProperties: false, properties: {} }), getOpportunityHandler(deps));
  router.get('/opportunities/:id/campaigns', byId(opportunityCampaignsQuery), opportunityCampaignsHandler(deps));
  router.get('/opportunities/:id/storing-ids', byId(storingIdsQuery), storingIdsHandler(deps));
  router.get('/opportunities/:id/apr-records', byId(recordsQuery), recordsHandler(deps, 'apr'));
  router.get('/opportunities/:id/tvl-records', byId(recordsQuery), recordsHandler(deps, 'tvl'));
  router.get('/opportunities/:id/native-apr-records', byId(recordsQuery), recordsHandler(deps, 'native_apr'));
  return router;
}
