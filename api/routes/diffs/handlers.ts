import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { loadVerifiedRootAt } from '../../reads/roots.js';
import type { Handler } from '../../validate.js';
import { withPrices } from '../../reads/tokens/tokenRecords.js';
import { breakdownsPage } from './breakdownsPage.js';
import { leavesPage } from './leavesPage.js';
import { leafTokens, treeSeqOf } from './repo.js';
import type { breakdownsQuery, leavesQuery, tokensQuery } from './schema.js';
import { serializeBreakdowns, serializeLeaves } from './serialize.js';

/**
 * The latest verified root of a chain, whatever the clock says (a devnet's chain time may run ahead of ours),
 * with its tree's seq; none is a 404. A tree stored without amounts has no seq: read as seq 0, before every
 * stored version (seqs start at 1), it has no leaves, as before.
 */
async function liveVerifiedRoot(deps: ApiDeps, chainId: number) {
  const root = await loadVerifiedRootAt(deps.pg, chainId, Number.MAX_SAFE_INTEGER);
  if (!root) throw new NotFoundError(`No verified reward root on chain ${chainId}`);
  return { ...root, seq: (await treeSeqOf(deps.pg, chainId, root.root)) ?? '0' };
}

/** GET /v4/diffs/leaves (back office): leaves of a token in the latest verified root, with claimed amounts. */
export function leavesHandler(deps: ApiDeps): Handler<{ query: typeof leavesQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const live = await liveVerifiedRoot(deps, q.chainId);
    ctx.body = serializeLeaves(live.root, q, await leavesPage(deps.pg, q, live.seq));
  };
}

/** GET /v4/diffs/leaf-breakdowns (back office): per-campaign leaf breakdowns with pro-rata claims. */
export function breakdownsHandler(deps: ApiDeps): Handler<{ query: typeof breakdownsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const live = await liveVerifiedRoot(deps, q.chainId);
    ctx.body = serializeBreakdowns(live, q, await breakdownsPage(deps.pg, q, live.seq));
  };
}

/** GET /v4/diffs/leaf-tokens (back office): the tokens with leaves in the latest verified root, with prices. */
export function leafTokensHandler(deps: ApiDeps): Handler<{ query: typeof tokensQuery }> {
  return async (ctx) => {
    const { chainId } = ctx.state.query;
    const live = await liveVerifiedRoot(deps, chainId);
    const rows = await leafTokens(deps.pg, chainId, live.seq);
    ctx.body = await withPrices(deps, rows, new Date(nowSeconds(deps) * 1000));
  };
}
