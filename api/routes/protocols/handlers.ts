import { nowSeconds, type ApiDeps } from '../../deps.js';
import { loadProtocolCurations } from '../../../domain/tables/protocolOverrides.js';
import { aggregateProtocols } from '../../reads/protocols/aggregate.js';
import { loadOpportunityFacts } from '../../reads/protocols/repo.js';
import type { Handler } from '../../validate.js';
import type { listProtocolsQuery } from '../../reads/protocols/schema.js';
import { serializeProtocol } from '../../reads/protocols/serialize.js';

/**
 * GET /v4/protocols: protocols of the campaign types present in opportunities, with daily rewards
 * and live campaigns aggregated over their matching opportunities. Tables opportunities,
 * campaigns_current, opportunity_metrics, chains, tokens, protocol_overrides.
 */
export function listProtocolsHandler(deps: ApiDeps): Handler<{ query: typeof listProtocolsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const [facts, curations] = await Promise.all([
      loadOpportunityFacts(deps.pg, nowSeconds(deps)),
      loadProtocolCurations(deps.pg),
    ]);
    ctx.body = aggregateProtocols(facts, q, curations).map(serializeProtocol);
  };
}
