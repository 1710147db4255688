import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listRewardsHandler } from './handlers.js';
import { listRewardsQuery } from '../../reads/rewards/schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, decimal, obj, str } from '../../openapi/schemaHelpers.js';

/** /v4/rewards: reward recipients of one campaign in the live root. */
export function rewardsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/rewards', '/rewards/'],
    describe({
      summary: 'Reward recipients of a campaign in the live root, by descending amount',
      description:
        'Every address rewarded by campaign `campaignId` on `chainId` in the live root, by descending amount (wei strings). `hide=true` leaves out recipients with nothing left to claim.',
      response: arr(
        obj({
          recipient: str,
          campaignId: str,
          reason: str,
          rewardTokenAddress: str,
          amount: decimal,
          claimed: decimal,
          pending: decimal,
        }),
      ),
    }),
    validate({ query: listRewardsQuery }),
    listRewardsHandler(deps),
  );
  return router;
}
