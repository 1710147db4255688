import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, decimal, int, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { campaignHistoryHandler, recipientHistoryHandler } from './handlers.js';
import { campaignParams, historicalQuery, recipientParams } from './schema.js';

const rootSchema = obj({ root: str, timestamp: num });
const historicalSchema = obj({
  startRoot: nullable(rootSchema),
  endRoot: rootSchema,
  count: int,
  breakdowns: arr(
    obj({
      campaignId: str,
      recipient: str,
      reason: str,
      rewardToken: str,
      startAmount: decimal,
      endAmount: decimal,
      diff: decimal,
    }),
  ),
});

/**
 * Reward state between two dates (docs/api-behaviour.md#historical-reward-state), back office only: the last verified
 * root at or before each date, and per (campaign, recipient, reason, token) breakdown the amounts in both roots and
 * their difference (amounts are cumulative, so the diff is what accrued in between). `startRoot` is null when no root
 * precedes the start; a missing end root is a 404. Tables: roots, reward_trees, reward_breakdown_versions,
 * reward_campaign_totals, campaigns.
 */
export function historicalRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.get(
    '/historical/campaign/:campaignId',
    describe({
      summary: 'Reward diffs of a campaign between two dates (back office)',
      description:
        "How each recipient's rewards from the campaign changed between `startDate` and `endDate` on `chainId` (back office).",
      response: historicalSchema,
      errors: [404],
    }),
    requireBackOffice,
    validate({ params: campaignParams, query: historicalQuery }),
    campaignHistoryHandler(deps),
  );
  router.get(
    '/historical/recipient/:recipient',
    describe({
      summary: 'Reward diffs of a recipient between two dates (back office)',
      description:
        "How the recipient's rewards changed per campaign between `startDate` and `endDate` on `chainId` (back office).",
      response: historicalSchema,
      errors: [404],
    }),
    requireBackOffice,
    validate({ params: recipientParams, query: historicalQuery }),
    recipientHistoryHandler(deps),
  );
  return router;
}
