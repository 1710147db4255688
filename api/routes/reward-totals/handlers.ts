import { totalsOf, unclaimedOf } from '../../reads/reward-totals/liveTotals.js';
import type { ApiDeps } from '../../deps.js';
import type { Handler } from '../../validate.js';
import { campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import { privateVisibility } from '../../reads/campaign-access/visibility.js';
import {
  distributedByToken,
  distributedRows,
  distributedTopOpportunities,
  groupDistributed,
  type TokenRow,
  type UsdRow,
} from '../../reads/reward-totals/distributed.js';
import type {
  campaignTotalsParams,
  chainOnlyQuery,
  distributedOpportunitiesQuery,
  distributedQuery,
  rewardTotalsQuery,
  tokenTotalsQuery,
  unclaimQuery,
} from '../../reads/reward-totals/schema.js';
import { withOpportunityNames } from '../../reads/reward-totals/topOpportunities.js';
import { campaignLiveTotals, tokenLiveTotals } from '../../reads/reward-totals/totals.js';

/** GET /v4/rewards/total: `{ campaignId, amount }` (or `{ token, rewardTokenId, amount }`) in the live root. */
export function rewardTotalHandler(deps: ApiDeps): Handler<{ query: typeof rewardTotalsQuery }> {
  return async (ctx) => {
    const { count: _count, ...t } = await totalsOf(deps, ctx.state.query, ctx.state);
    ctx.body = t;
  };
}

/** GET /v4/rewards/count: `{ count }` recipients in the live root of a campaign or token. */
export function rewardCountHandler(deps: ApiDeps): Handler<{ query: typeof rewardTotalsQuery }> {
  return async (ctx) => {
    const { amount: _amount, ...t } = await totalsOf(deps, ctx.state.query, ctx.state);
    ctx.body = t;
  };
}

/** GET /v4/rewards/campaign/{campaignId}/total and /count (hosted spelling of the campaign forms). */
export function campaignPathTotalsHandler(
  deps: ApiDeps,
  figure: 'amount' | 'count',
): Handler<{ params: typeof campaignTotalsParams; query: typeof chainOnlyQuery }> {
  return async (ctx) => {
    const { campaignId } = ctx.state.params;
    const { chainId } = ctx.state.query;
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    const t = await campaignLiveTotals(deps, chainId, campaignId, visible);
    ctx.body = { chainId, campaignId: campaignId.toLowerCase(), root: t.root, [figure]: t[figure] };
  };
}

/** GET /v4/rewards/token/total and /count (hosted spelling: `address`; `{ rewardTokenId, amount }`). */
export function tokenPathTotalsHandler(
  deps: ApiDeps,
  figure: 'amount' | 'count',
): Handler<{ query: typeof tokenTotalsQuery }> {
  return async (ctx) => {
    const { chainId, address } = ctx.state.query;
    const t = await tokenLiveTotals(deps, chainId, address, await campaignVisibilityOf(deps, ctx.state, true));
    ctx.body = {
      chainId,
      token: address.toLowerCase(),
      rewardTokenId: t.rewardTokenId,
      root: t.root,
      [figure]: t[figure],
    };
  };
}

/** GET /v4/rewards/unclaim: map campaignId (or the token) → unclaimed units in the live root. */
export function unclaimHandler(deps: ApiDeps): Handler<{ query: typeof unclaimQuery }> {
  return async (ctx) => {
    ctx.body = await unclaimedOf(deps, ctx.state.query, ctx.state);
  };
}

/** The rows a /distributed route shapes: USD by campaign (`type`) or units and USD by token. */
type RowsBy<B extends 'type' | 'token'> = B extends 'token' ? TokenRow[] : UsdRow[];

/**
 * GET /v4/rewards/total/distributed[/by-chains|/by-types|/by-protocols|/by-tokens]: `shape` turns the
 * rows (grouped `by` campaign type, or by token for /by-tokens) into the answer. Private campaigns
 * count with `showPrivate=true` for those who may see them.
 */
export function distributedHandler<B extends 'type' | 'token'>(
  deps: ApiDeps,
  by: B,
  shape: (rows: RowsBy<B>) => unknown,
): Handler<{ query: typeof distributedQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    if (q.showPrivate) ctx.state.private = true;
    const visible = await privateVisibility(deps, ctx.state, q.showPrivate);
    const { rows, path } =
      by === 'token'
        ? await distributedRows(deps, q, visible, 'token')
        : await distributedRows(deps, q, visible, 'type');
    // Which path answered (rollup, exact, search): operators and tests see it without a debug switch.
    ctx.set('server-timing', `distributed;desc=${path}`);
    ctx.body = shape(rows as RowsBy<B>);
  };
}

/**
 * GET /v4/rewards/total/distributed/by-opportunities: the `items` opportunities whose campaigns
 * (under the same window, filters and visibility as /distributed) distributed the most USD.
 */
export function distributedOpportunitiesHandler(
  deps: ApiDeps,
): Handler<{ query: typeof distributedOpportunitiesQuery }> {
  return async (ctx) => {
    const { items, ...q } = ctx.state.query;
    if (q.showPrivate) ctx.state.private = true;
    const visible = await privateVisibility(deps, ctx.state, q.showPrivate);
    const { top, path } = await distributedTopOpportunities(deps, q, visible, items);
    ctx.set('server-timing', `distributed;desc=${path}`);
    ctx.body = await withOpportunityNames(deps, top);
  };
}

export { distributedByToken, groupDistributed };
