import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { campaignMetricsHandler, linkedCampaignsHandler, storingIdsHandler } from './familyHandlers.js';
import { campaignsByTxHandler, getCampaignHandler, listCampaignsHandler } from './handlers.js';
import {
  campaignRefParams,
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
    describe({
      summary: 'Search campaigns (filters, sorted, paged)',
      description:
        "Campaigns matching every given filter (Campaign records). `showPrivate=true` adds the private campaigns the caller may read; `withOpportunity=true` attaches each campaign's light opportunity under `opportunity` (and, deprecated, `Opportunity`); `search` matches each word in the campaign or its opportunity (name, protocol, target token); `campaignLists` with `listOwner` restricts to campaigns in those lists.",
      response: campaignListSchema,
    }),
    validate({ query: listCampaignsQuery }),
    listCampaignsHandler(deps),
  );
  mountGeneratePayload(router, deps);
  router.get(
    '/campaigns/tx',
    describe({
      summary: 'Internal ids of the campaigns created by a transaction',
      description:
        'The internal ids of the campaigns created by the transaction `hash` on `chainId` (several when one call created several campaigns). 404 when the transaction created none we indexed.',
      response: campaignIdsSchema,
    }),
    validate({ query: campaignTxQuery }),
    campaignsByTxHandler(deps),
  );
  router.get(
    '/campaigns/:id',
    describe({
      summary: 'One campaign by internal id or chainId-campaignId, with its reallocations',
      description:
        'One campaign by internal id or `distributionChainId-campaignId` (the on-chain id), with its reallocations. A private campaign is a 404 unless `showPrivate=true` and the caller may read it.',
      response: campaignByIdSchema,
    }),
    validate({ params: campaignRefParams, query: getCampaignQuery }),
    getCampaignHandler(deps),
  );
  router.get(
    '/campaigns/:id/metrics',
    describe({
      summary: 'TVL, APR, daily rewards and wallet count series of a campaign',
      description:
        "Time series of the campaign's TVL, APR, daily rewards and wallet count. Each series is paged on its own with `<series>[page]` and `<series>[limit]`.",
      response: campaignMetricsSchema,
    }),
    validate({ params: campaignRefParams, query: campaignMetricsQuery }),
    campaignMetricsHandler(deps),
  );
  router.get(
    '/campaigns/:id/storing-ids',
    describe({
      summary: 'Storing ids of the campaign and its sub-campaigns',
      description:
        'The storing ids of the campaign (root node) and of every sub-campaign, recursively under `subCampaigns`. A stateless campaign has an empty `storingIds`; one storing id may appear in several nodes.',
      response: storingIdsNodeSchema,
    }),
    validate({ params: campaignRefParams, query: noQuery }),
    storingIdsHandler(deps),
  );
  router.get(
    '/campaigns/:id/linked',
    describe({
      summary: 'The campaign family (root, parents, sub-campaigns)',
      description:
        "The campaign's family as a flat list: its parents up to the root and its whole sub-campaign subtree, each node with `campaignId` and `parentCampaignId`; `self` is the requested campaign.",
      response: linkedCampaignsSchema,
    }),
    validate({ params: campaignRefParams, query: linkedCampaignsQuery }),
    linkedCampaignsHandler(deps),
  );
  return router;
}
