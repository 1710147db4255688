import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { campaignMetricsQuery, campaignRefParams } from '../../reads/campaigns/schema.js';
import {
  creatorCampaignMetricsHandler,
  creatorCampaignsHandler,
  dashboardHandler,
  getCreatorHandler,
  listCreatorsHandler,
} from './handlers.js';
import { creatorCampaignsQuery, creatorParams, dashboardQuery, listCreatorsQuery } from './schema.js';
import { creatorOppCountQuery, creatorOppFiltersQuery } from '../../reads/opportunities/schema.js';
import { creatorOpportunitiesCountHandler, creatorOpportunitiesHandler } from './opportunities.js';
import { describe } from '../../openapi/describe.js';
import { campaignSchema, opportunitySchema } from '../../openapi/records.js';
import { arr, int, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';
import { campaignMetricsSchema } from '../../reads/campaigns/responses.js';
import { countSchema } from '../../reads/opportunities/responses.js';

const creatorSchema = obj({
  id: str,
  name: str,
  icon: nullable(str),
  rebateFee: num,
  addresses: arr(str),
  tags: arr(str),
});
const dashboardSchema = obj({
  pastCampaigns: int,
  liveCampaigns: int,
  futureCampaigns: int,
  totalTvl: num,
  totalWallets: num,
  totalCampaigns: int,
  totalDistributed: num,
  creatorId: nullable(str),
});

/**
 * /v4/creators routes (the `/{creator}/opportunities` ones belong to the opportunities family).
 * `/creators/campaigns/{campaignId}` reuses GET /v4/campaigns/{id}/metrics (same query and shape).
 */
export function creatorsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/creators', '/creators/'],
    describe({
      summary: 'Creators matching the filters',
      description: 'Campaign creators matching `id`, `address` or `search`.',
      response: arr(creatorSchema),
    }),
    validate({ query: listCreatorsQuery }),
    listCreatorsHandler(deps),
  );
  router.get(
    '/creators/campaigns/:id',
    describe({
      summary: 'Campaign metrics (as GET /v4/campaigns/{id}/metrics)',
      description: 'The metrics of one campaign, as GET /v4/campaigns/{id}/metrics answers them.',
      response: campaignMetricsSchema,
    }),
    validate({ params: campaignRefParams, query: campaignMetricsQuery }),
    creatorCampaignMetricsHandler(deps),
  );
  router.get(
    '/creators/:creator',
    describe({
      summary: 'One creator by id, slug or address',
      description: 'One creator by id, slug or address.',
      response: creatorSchema,
    }),
    validate({ params: creatorParams }),
    getCreatorHandler(deps),
  );
  router.get(
    '/creators/:creator/dashboard',
    describe({
      summary: 'Dashboard figures of a creator',
      description:
        "The creator's overview: campaign counts by status, TVL of the live ones, wallets rewarded, and `totalDistributed`: USD the live roots distributed for the creator's campaigns, exactly what `GET /v4/rewards/total/distributed?creatorAddresses=<its addresses>&showPrivate=true` answers the same caller (each root's new amounts at the token's close of the root's day). `test=true` includes test chains (and, in `totalDistributed`, test reward tokens).",
      response: dashboardSchema,
    }),
    validate({ params: creatorParams, query: dashboardQuery }),
    dashboardHandler(deps),
  );
  router.get(
    '/creators/:creator/opportunities/count',
    describe({
      summary: 'Count of the creator opportunities',
      description:
        "The number of the creator's opportunities matching the filters (OPP-FILTERS minus creator and campaign ones).",
      response: countSchema,
    }),
    validate({ params: creatorParams, query: creatorOppCountQuery }),
    creatorOpportunitiesCountHandler(deps),
  );
  router.get(
    '/creators/:creator/opportunities',
    describe({
      summary: 'Opportunities of the creator, paged',
      description:
        'The opportunities in which the creator has campaigns, matching the filters, with per-creator live, soon and past campaign counts.',
      response: arr(opportunitySchema),
    }),
    validate({ params: creatorParams, query: creatorOppFiltersQuery }),
    creatorOpportunitiesHandler(deps),
  );
  router.get(
    '/creators/:creator/campaigns',
    describe({
      summary: 'Campaigns of the creator, by status',
      description: 'Every campaign of the creator, filtered by `status`.',
      response: arr(campaignSchema),
    }),
    validate({ params: creatorParams, query: creatorCampaignsQuery }),
    creatorCampaignsHandler(deps),
  );
  return router;
}
