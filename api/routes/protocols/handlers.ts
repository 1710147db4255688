import type { Context } from 'koa';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { aggregateProtocols } from './aggregate.js';
import { loadOpportunityFacts } from './repo.js';
import type { ListProtocolsQuery } from './schema.js';
import { serializeProtocol } from './serialize.js';

/**
 * GET /v4/protocols: protocols of the campaign types present in opportunities, with daily rewards
 * and live campaigns aggregated over their matching opportunities. Tables opportunities,
 * campaigns_current, opportunity_metrics, chains, tokens.
 */
export function listProtocolsHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const q = ctx.state.query as ListProtocolsQuery;
    const facts = await loadOpportunityFacts(deps.pg, nowSeconds(deps));
    ctx.body = aggregateProtocols(facts, q).map(serializeProtocol);
  };
}
