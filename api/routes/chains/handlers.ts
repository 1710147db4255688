import { toChainRecord } from '../../../domain/documents/records.js';
import { currentChainRows } from '../../chainRecords.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import type { Handler } from '../../validate.js';
import type { listChainsQuery } from '../../reads/chains/schema.js';

/**
 * GET /v4/chains: supported chains with their live campaign count from indexed data. `name`
 * matches case-insensitively as a substring; test chains only with `test=true`.
 */
export function listChainsHandler(deps: ApiDeps): Handler<{ query: typeof listChainsQuery }> {
  return async (ctx) => {
    const query = ctx.state.query;
    const rows = await currentChainRows(deps, nowSeconds(deps));
    const needle = query.name?.toLowerCase();
    ctx.body = rows
      .filter((r) => (query.test || !r.isTest) && (!needle || r.name.toLowerCase().includes(needle)))
      .map(toChainRecord);
  };
}
