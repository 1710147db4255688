import { configuredChain } from '../../configuredChain.js';
import type { ApiDeps } from '../../deps.js';
import type { Handler } from '../../validate.js';
import { campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import { findClammPools } from './repo.js';
import { CLAMM_PROTOCOLS, type ClammProtocol, type clammChainParams, type clammPoolsQuery } from './schema.js';
import { clammPool, type ClammPool } from './serialize.js';

type Params = { chainId: number; poolId?: string; protocol?: ClammProtocol };

/**
 * GET /v4/clamm/pools/{chainId}[/{poolId}] and /v4/clamm/pools/protocol/{chainId}/{protocol}[/{poolId}]:
 * pool id → pool, the pools of a configured chain (a chain we do not index is a 400 naming chainId).
 */
export function clammPoolsHandler(
  deps: ApiDeps,
): Handler<{ params: typeof clammChainParams; query: typeof clammPoolsQuery }> {
  return async (ctx) => {
    const { chainId, poolId, protocol } = ctx.state.params as Params;
    const q = ctx.state.query;
    const chain = configuredChain(deps, chainId);
    if (q.showPrivate) ctx.state.private = true;
    const items = q.items ?? 1000;
    const rows = await findClammPools(deps.pg, {
      chainId,
      types: protocol ? [CLAMM_PROTOCOLS[protocol]] : Object.values(CLAMM_PROTOCOLS),
      poolId,
      visible: await campaignVisibilityOf(deps, ctx.state, q.showPrivate),
      limit: items,
      offset: (q.page ?? 0) * items,
    });
    const body: Record<string, ClammPool> = {};
    for (const row of rows) body[row.identifier] = clammPool(row, chain);
    ctx.body = body;
  };
}
