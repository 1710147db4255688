import Router from '@koa/router';
import { describe } from '../../openapi/describe.js';
import { arr, decimal, int, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireBackOffice } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { revenuesHandler } from './handlers.js';
import {
  chainMonthParams,
  chainParams,
  monthParams,
  noParams,
  noQuery,
  tokenMonthParams,
  tokenParams,
} from './schema.js';

const revenuesSchema = obj({
  totalUsd: num,
  campaigns: int,
  pendingCampaigns: int,
  unpricedCampaigns: int,
  revenues: arr(
    obj({
      month: str,
      chainId: int,
      tokenAddress: str,
      symbol: nullable(str),
      decimals: nullable(int),
      amount: decimal,
      amountUsd: nullable(num),
      campaigns: int,
      pendingCampaigns: int,
      unpricedCampaigns: int,
    }),
  ),
});

const ROUTES = [
  ['/accounting/revenues', noParams, 'all campaigns'],
  ['/accounting/revenues/per-month/:year/:month', monthParams, 'the campaigns created in one UTC month'],
  ['/accounting/revenues/chains/:chainId', chainParams, 'the campaigns of one distribution chain'],
  [
    '/accounting/revenues/chains/:chainId/per-month/:year/:month',
    chainMonthParams,
    'the campaigns of one distribution chain created in one UTC month',
  ],
  ['/accounting/revenues/tokens/:chainId/:tokenAddress', tokenParams, 'the campaigns rewarding one token'],
  [
    '/accounting/revenues/tokens/:chainId/:tokenAddress/per-month/:year/:month',
    tokenMonthParams,
    'the campaigns rewarding one token created in one UTC month',
  ],
] as const;

/**
 * Fee revenue (docs/api-behaviour.md#fee-revenue), back office only like /v4/historical and /v4/diffs: the creation
 * fees the DistributionCreator took (campaigns.fee_amount, read from the creation transactions by the campaign-fees
 * job), per UTC month of creation, distribution chain and reward token, in base units and in USD at the creation
 * day's price. Private campaigns count (the back office sees them all). Tables: campaigns (fee_usd), tokens.
 */
export function accountingRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  for (const [path, params, what] of ROUTES) {
    router.get(
      [path, `${path}/`],
      describe({
        summary: `Creation fees taken from ${what} (back office)`,
        description: `The creation fees the DistributionCreator took from ${what}, per UTC month of creation (\`YYYY-MM\`), distribution chain and reward token: \`amount\` in base units, \`amountUsd\` at the token's daily close on or before the creation day (null without one), and the campaigns counted (\`pendingCampaigns\`: fee not read from the chain yet; \`unpricedCampaigns\`: a fee but no price). \`totalUsd\` sums the priced groups (back office).`,
        response: revenuesSchema,
      }),
      requireBackOffice,
      validate({ params, query: noQuery }),
      revenuesHandler(deps),
    );
  }
  return router;
}
