import { loadProtocolCatalogue } from '../../../domain/tables/protocolCatalogue.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { aggregateProtocols } from '../../reads/protocols/aggregate.js';
import { protocolRecord } from '../../reads/protocols/protocolRecord.js';
import { loadOpportunityFacts } from '../../reads/protocols/repo.js';
import type { listProtocolsQuery, protocolIdParams } from '../../reads/protocols/schema.js';
import { serializeProtocol } from '../../reads/protocols/serialize.js';
import type { Handler } from '../../validate.js';

/**
 * GET /v4/protocols: every protocol of the catalogue (registry, corrections, added ones) passing the filters, with
 * daily rewards and live campaigns aggregated over their matching opportunities. Tables opportunities,
 * campaigns_current, opportunity_metrics, chains, tokens, protocol_overrides, protocols.
 */
export function listProtocolsHandler(deps: ApiDeps): Handler<{ query: typeof listProtocolsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const [facts, catalogue] = await Promise.all([
      loadOpportunityFacts(deps.pg, nowSeconds(deps)),
      loadProtocolCatalogue(deps.pg),
    ]);
    ctx.body = aggregateProtocols(facts, q, catalogue).map(serializeProtocol);
  };
}

/** GET /v4/protocols/{id}: 404 for an id the catalogue does not hold. */
export function getProtocolHandler(deps: ApiDeps): Handler<{ params: typeof protocolIdParams }> {
  return async (ctx) => {
    const record = await protocolRecord(deps.pg, nowSeconds(deps), ctx.state.params.id);
    if (!record) throw new NotFoundError(`No protocol ${ctx.state.params.id}`);
    ctx.body = record;
  };
}
