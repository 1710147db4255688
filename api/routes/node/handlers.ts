import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { findOpportunityNodes } from './repo.js';
import type { NodeQuery } from './schema.js';
import { contractNodes, opportunityNode } from './serialize.js';

/** GET /v4/node: our contracts matching the address, then the opportunities it or the id labels. */
export function nodeHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const { chainId, addressOrId } = ctx.state.query as NodeQuery;
    const rows = await findOpportunityNodes(deps.pg, addressOrId, chainId);
    ctx.body = [...contractNodes(deps.config.chains, addressOrId.toLowerCase(), chainId), ...rows.map(opportunityNode)];
  };
}
