import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { any, arr, decimal, int, obj, str } from '../../openapi/schemaHelpers.js';
import { tokenSchema } from '../../openapi/records.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { breakdownsHandler, leafTokensHandler, leavesHandler } from './handlers.js';
import { breakdownsQuery, leavesQuery, tokensQuery } from './schema.js';

const summarySchema = obj({
  total: int,
  totalAmount: decimal,
  totalClaimed: decimal,
  positiveAmount: decimal,
  negativeAmount: decimal,
});

/**
 * Reward-tree leaves of the latest verified root (docs/api-behaviour.md#reward-leaves; a newer root still being
 * verified is not shown), back office only: per recipient of
 * a token, the cumulative amount and what was claimed (capped at the amount), with a summary
 * (`positiveAmount` sums what is still to claim, `negativeAmount` minus what was paid beyond leaves); per-campaign leaf
 * breakdowns with their opportunity; and the tokens that have leaves. Paged and sortable.
 * Tables: roots, reward_trees, reward_leaf_versions, reward_breakdown_versions, reward_token_totals, reward_campaign_totals,
 * claimed_totals, campaigns, opportunities, tokens.
 */
export function diffsRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  router.get(
    '/diffs/leaves',
    describe({
      summary: 'Leaves of a token in the latest verified root, with claimed amounts (back office)',
      description:
        "The Merkle leaves of `tokenAddress` on `chainId` in the latest verified root, with each recipient's claimed amount (back office).",
      response: obj({
        root: str,
        count: int,
        leaves: arr(
          obj({ distributionChainId: int, tokenAddress: str, recipient: str, amount: decimal, claimed: decimal }),
        ),
        summary: summarySchema,
      }),
      errors: [404],
    }),
    requireBackOffice,
    validate({ query: leavesQuery }),
    leavesHandler(deps),
  );

  router.get(
    '/diffs/leaf-breakdowns',
    describe({
      summary: 'Per-campaign leaf breakdowns with pro-rata claims (back office)',
      description: 'Per-campaign breakdowns of the leaves, with claims allotted pro rata (back office).',
      response: obj({ root: str, count: int, breakdowns: arr(any), summary: summarySchema, opportunities: any }),
      errors: [404],
    }),
    requireBackOffice,
    validate({ query: breakdownsQuery }),
    breakdownsHandler(deps),
  );

  router.get(
    '/diffs/leaf-tokens',
    describe({
      summary: 'Tokens with leaves in the latest verified root (back office)',
      description: 'The tokens having leaves in the latest verified root of `chainId` (back office).',
      response: arr(tokenSchema),
      errors: [404],
    }),
    requireBackOffice,
    validate({ query: tokensQuery }),
    leafTokensHandler(deps),
  );
  return router;
}
