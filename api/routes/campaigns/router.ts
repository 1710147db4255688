import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { campaignMetricsHandler, linkedCampaignsHandler, storingIdsHandler } from './familyHandlers.js';
import { campaignsByTxHandler, getCampaignHandler, listCampaignsHandler } from './handlers.js';
import { campaignIdParams, campaignMetricsQuery, campaignTxQuery, getCampaignQuery, linkedCampaignsQuery, listCampaignsQuery } from './schema.js';
import { mountGeneratePayload } from './payload/router.js';

/** Campaign routes mounted under /v4 (`/campaigns/tx` before `/campaigns/:id`). */
export function campaignsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(['/campaigns', '/campaigns/'], validate({ query: listCampaignsQuery }), listCampaignsHandler(deps));
  mountGeneratePayload(router, deps);
  router.get('/campaigns/tx', validate({ query: campaignTxQuery }), campaignsByTxHandler(deps));
  router.get('/campaigns/:id', validate({ params: campaignIdParams, query: getCampaignQuery }), getCampaignHandler(deps));
  router.get('/campaigns/:id/metrics', validate({ params: campaignIdParams, query: campaignMetricsQuery }), campaignMetricsHandler(deps));
  router.get('/campaigns/:id/storing-ids', validate({ params: campaignIdParams, query: { type: 'object', additionalProperties: false, properties: {} } }), storingIdsHandler(deps));
  router.get('/campaigns/:id/linked', validate({ params: campaignIdParams, query: linkedCampaignsQuery }), linkedCampaignsHandler(deps));
  return router;
}
