import type { ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import { lastDisputes, listChainDisputes, recentRootsWithDisputes } from './repo.js';
import type { chainDisputesQuery, chainParams, disputesByRootQuery, noQuery } from './schema.js';
import { type DisputeResponse, serializeDispute } from './serialize.js';

/** The configured chain `chainId`, or a 404 problem naming it. */
export function requireConfiguredChain(deps: ApiDeps, chainId: number): void {
  if (!deps.config.chains.some((c) => c.id === chainId)) throw new NotFoundError(`No chain ${chainId} is indexed here`);
}

/**
 * GET /v4/disputes: per chain id (every configured chain, or `chainId`), per root among its `roots` latest roots, the
 * disputes of that root in chain order (an empty list for a root nobody disputed), the hosted service's
 * `Record<chainId, Record<root, …[]>>`. Tables roots, distributor_events.
 */
export function disputesByRootHandler(deps: ApiDeps): Handler<{ query: typeof disputesByRootQuery }> {
  return async (ctx) => {
    const { chainId, roots: n } = ctx.state.query;
    if (chainId !== undefined) requireConfiguredChain(deps, chainId);
    const chainIds = chainId === undefined ? deps.config.chains.map((c) => c.id) : [chainId];
    const perChain = await Promise.all(chainIds.map((id) => recentRootsWithDisputes(deps.pg, id, n)));
    const body: Record<string, Record<string, DisputeResponse[]>> = {};
    for (const [i, id] of chainIds.entries()) {
      const { roots, disputes } = perChain[i]!;
      const byRoot: Record<string, DisputeResponse[]> = {};
      for (const r of roots) byRoot[r.root] = [];
      for (const d of disputes) if (d.root && byRoot[d.root]) byRoot[d.root]!.push(serializeDispute(d));
      body[String(id)] = byRoot;
    }
    ctx.body = body;
  };
}

/** GET /v4/disputes/{chainId}: the chain's dispute history, newest first, paged. Tables distributor_events, roots. */
export function chainDisputesHandler(
  deps: ApiDeps,
): Handler<{ params: typeof chainParams; query: typeof chainDisputesQuery }> {
  return async (ctx) => {
    const { chainId } = ctx.state.params;
    requireConfiguredChain(deps, chainId);
    const q = ctx.state.query;
    ctx.body = (await listChainDisputes(deps.pg, { chainId, status: q.status, page: q.page, items: q.items })).map(
      serializeDispute,
    );
  };
}

/**
 * GET /v4/roots/dispute: the hosted `{ disputeLive, chainsChecked }` (whether a dispute is open on any configured
 * chain, and which chains were checked) with `open`, the open disputes themselves. Tables distributor_events, roots.
 */
export function disputeLiveHandler(deps: ApiDeps): Handler<{ query: typeof noQuery }> {
  return async (ctx) => {
    const chainIds = deps.config.chains.map((c) => c.id);
    const open = (await lastDisputes(deps.pg, chainIds)).map(serializeDispute).filter((d) => d.status === 'open');
    ctx.body = { disputeLive: open.length > 0, chainsChecked: chainIds, open };
  };
}
