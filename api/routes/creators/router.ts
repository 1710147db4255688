import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { campaignMetricsHandler } from '../campaigns/familyHandlers.js';
import { campaignIdParams, campaignMetricsQuery } from '../campaigns/schema.js';
import { creatorCampaignsHandler, dashboardHandler, getCreatorHandler, listCreatorsHandler } from './handlers.js';
import { creatorCampaignsQuery, creatorParams, dashboardQuery, listCreatorsQuery } from './schema.js';
import { creatorOppCountQuery, creatorOppFiltersQuery } from '../opportunities/schema.js';
import { creatorOpportunitiesCountHandler, creatorOpportunitiesHandler } from './opportunities.js';

/**
 * /v4/creators routes (the `/{creator}/opportunities` ones belong to the opportunities family).
 * `/creators/campaigns/{campaignId}` reuses GET /v4/campaigns/{id}/metrics (same query and shape).
 */
export function creatorsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(['/creators', '/creators/'], validate({ query: listCreatorsQuery }), listCreatorsHandler(deps));
  router.get('/creators/campaigns/:id', validate({ params: campaignIdParams, query: campaignMetricsQuery }), campaignMetricsHandler(deps));
  router.get('/creators/:creator', validate({ params: creatorParams }), getCreatorHandler(deps));
  router.get('/creators/:creator/dashboard', validate({ params: creatorParams, query: dashboardQuery }), dashboardHandler(deps));
  router.get('/creators/:creator/opportunities/count', validate({ params: creatorParams, query: creatorOppCountQuery }), creatorOpportunitiesCountHandler(deps));
  router.get('/creators/:creator/opportunities', validate({ params: creatorParams, query: creatorOppFiltersQuery }), creatorOpportunitiesHandler(deps));
  router.get('/creators/:creator/campaigns', validate({ params: creatorParams, query: creatorCampaignsQuery }), creatorCampaignsHandler(deps));
  return router;
}
