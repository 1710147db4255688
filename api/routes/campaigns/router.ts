import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { campaignMetricsHandler, linkedCampaignsHandler, storingIdsHandler } from './familyHandlers.js';
import { campaignsByTxHandler, getCampaignHandler, listCampaignsHandler } from './handlers.js';
import {
  campaignIdParams,
  noQuery,
  campaignMetricsQuery,
  campaignTxQuery,
  getCampaignQuery,
  linkedCampaignsQuery,
  listCampaignsQuery,
} from './schema.js';
import { mountGeneratePayload } from './payload/router.js';
import { describe } from '../../openapi/describe.js';
import {
  campaignByIdSchema,
  campaignIdsSchema,
  campaignListSchema,
  campaignMetricsSchema,
  linkedCampaignsSchema,
} from './responses.js';
import { storingIdsNodeSchema } from '../opportunities/responses.js';

/** Campaign routes mounted under /v4 (`/campaigns/tx` before `/campaigns/:id`). */
export function campaignsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/campaigns', '/campaigns/'],
    describe({ summary: 'Search campaigns (filters, sorted, paged)', response: campaignListSchema }),
    validate({ query: listCampaignsQuery }),
    listCampaignsHandler(deps),
  );
  mountGeneratePayload(router, deps);
  router.get(
    '/campaigns/tx',
    describe({ summary: 'Internal ids of the campaigns created by a transaction', response: campaignIdsSchema }),
    validate({ query: campaignTxQuery }),
    campaignsByTxHandler(deps),
  );
  router.get(
    '/campaigns/:id',
    describe({
      summary: 'One campaign by internal id or chainId-campaignId, with its reallocations',
      response: campaignByIdSchema,
    }),
    validate({ params: campaignIdParams, query: getCampaignQuery }),
    getCampaignHandler(deps),
  );
  router.get(
    '/campaigns/:id/metrics',
    describe({
      summary: 'TVL, APR, daily rewards and wallet count series of a campaign',
      response: campaignMetricsSchema,
    }),
    validate({ params: campaignIdParams, query: campaignMetricsQuery }),
    campaignMetricsHandler(deps),
  );
  router.get(
    '/campaigns/:id/storing-ids',
    describe({ summary: 'Storing ids of the campaign and its sub-campaigns', response: storingIdsNodeSchema }),
    validate({ params: campaignIdParams, query: noQuery }),
    storingIdsHandler(deps),
  );
  router.get(
    '/campaigns/:id/linked',
    describe({ summary: 'The campaign family (root, parents, sub-campaigns)', response: linkedCampaignsSchema }),
    validate({ params: campaignIdParams, query: linkedCampaignsQuery }),
    linkedCampaignsHandler(deps),
  );
  return router;
}
