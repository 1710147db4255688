import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { loadRevenues } from './repo.js';
import type { RevenueParams } from './schema.js';
import { serializeRevenues } from './serialize.js';

/** GET /v4/accounting/revenues[/…] (back office): creation fees of the campaigns the path parameters select. */
export function revenuesHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const p = ctx.state.params as RevenueParams;
    ctx.body = serializeRevenues(
      await loadRevenues(deps.pg, {
        ...(p.chainId !== undefined ? { chainId: p.chainId } : {}),
        ...(p.tokenAddress !== undefined ? { tokenAddress: p.tokenAddress } : {}),
        ...(p.year !== undefined && p.month !== undefined ? { year: p.year, month: p.month } : {}),
      }),
    );
  };
}
