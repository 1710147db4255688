import type { ApiDeps } from '../../deps.js';
import { findOpportunityNodes } from './repo.js';
import type { Handler } from '../../validate.js';
import type { nodeQuery } from './schema.js';
import { contractNodes, opportunityNode } from './serialize.js';

/** GET /v4/node: our contracts matching the address, then the opportunities it or the id labels. */
export function nodeHandler(deps: ApiDeps): Handler<{ query: typeof nodeQuery }> {
  return async (ctx) => {
    const { chainId, addressOrId } = ctx.state.query;
    const rows = await findOpportunityNodes(deps.pg, addressOrId, chainId);
    ctx.body = [...contractNodes(deps.config.chains, addressOrId.toLowerCase(), chainId), ...rows.map(opportunityNode)];
  };
}
