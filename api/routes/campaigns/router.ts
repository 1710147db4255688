import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { campaignMetricsHandler, linkedCampaignsHandler, storingIdsHandler } from './familyHandlers.js';
import { campaignsByTxHandler, getCampaignHandler, listCampaignsHandler } from './handlers.js';
import { countCampaignsHandler } from './countHandlers.js';
import {
  campaignRefParams,
  noQuery,
  campaignMetricsQuery,
  campaignTxQuery,
  COUNT_GROUPS,
  countCampaignsQuery,
  getCampaignQuery,
  linkedCampaignsQuery,
  listCampaignsQuery,
} from '../../reads/campaigns/schema.js';
import { mountGeneratePayload } from './payload/router.js';
import { describe } from '../../openapi/describe.js';
import {
  campaignByIdSchema,
  campaignIdsSchema,
  campaignListSchema,
  campaignMetricsSchema,
  campaignCountSchema,
  campaignCountsByKeySchema,
  linkedCampaignsSchema,
} from '../../reads/campaigns/responses.js';
import { storingIdsNodeSchema } from '../../reads/opportunities/responses.js';

/** Campaign routes mounted under /v4 (`/campaigns/tx` and `/campaigns/count` before `/campaigns/:id`). */
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
    ['/campaigns/count', '/campaigns/count/'],
    describe({
      summary: 'Count campaigns matching the campaign filters',
      description:
        'The number of campaigns `GET /v4/campaigns` lists for the same filters over all its pages (paging parameters are accepted and ignored), as a bare number. With `grain=month`, `{ "YYYY-MM": count }` per UTC month of the campaigns\' creation (`createdAt`; months without a campaign are left out).',
      response: campaignCountSchema,
    }),
    validate({ query: countCampaignsQuery }),
    countCampaignsHandler(deps),
  );
  for (const group of COUNT_GROUPS) {
    router.get(
      [`/campaigns/count/by-${group}`, `/campaigns/count/by-${group}/`],
      describe({
        summary: `Count campaigns per ${group.slice(0, -1)} under the campaign filters`,
        description: `The campaigns \`GET /v4/campaigns\` lists for the same filters, counted per ${
          group === 'chains'
            ? 'chain (`computeChainId`, the chain the `chainId` filter names)'
            : group === 'types'
              ? 'campaign type name'
              : 'main protocol id (campaigns without one under `none`, as `/rewards/total/distributed/by-protocols` counts them, so the keys sum to `/campaigns/count`)'
        }: \`{ key: count }\`, keys without a campaign left out. With \`grain=month\`, \`{ "YYYY-MM": { key: count } }\` per UTC month of creation. Public, unlike the hosted service's back-office route (docs/api-behaviour.md#campaign-counts).`,
        response: campaignCountsByKeySchema,
      }),
      validate({ query: countCampaignsQuery }),
      countCampaignsHandler(deps, group),
    );
  }
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
