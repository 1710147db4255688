import Router from '@koa/router';
import { loadProtocolCatalogue } from '../../../domain/tables/protocolCatalogue.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { describe } from '../../openapi/describe.js';
import { type Handler, validate } from '../../validate.js';
import { aggregateProtocols } from '../../reads/protocols/aggregate.js';
import { loadOpportunityFacts } from '../../reads/protocols/repo.js';
import { listProtocolsQuery } from '../../reads/protocols/schema.js';
import { loadTemplates } from '../../../domain/tables/campaignTemplates.js';
import { filterTemplates } from '../../reads/templates/serialize.js';
import { listTemplatesQuery } from '../../reads/templates/schema.js';

const countSchema = { type: 'integer', minimum: 0 } as const;
/** Every page at once: the count ignores `page` and `items`. */
const ALL = { page: 0, items: Number.MAX_SAFE_INTEGER };

/**
 * The hosted service's `/count` reads of the protocol and template families: how many the list route matches with the
 * same filters, over every page (tokens and chains have theirs beside their curation, tokens.ts and chains.ts).
 * Tables (protocols): opportunities, campaigns_current, opportunity_metrics, chains, tokens, protocol_overrides, protocols;
 * (templates) campaign_templates, protocol_overrides, protocols.
 */
export function referenceCountsRouter(deps: ApiDeps): Router {
  const router = new Router();
  const protocols: Handler<{ query: typeof listProtocolsQuery }> = async (ctx) => {
    const [facts, catalogue] = await Promise.all([
      loadOpportunityFacts(deps.pg, nowSeconds(deps)),
      loadProtocolCatalogue(deps.pg),
    ]);
    ctx.body = aggregateProtocols(facts, { ...ctx.state.query, ...ALL }, catalogue).length;
  };
  const templates: Handler<{ query: typeof listTemplatesQuery }> = async (ctx) => {
    ctx.body = filterTemplates(await loadTemplates(deps.pg), { ...ctx.state.query, ...ALL }).length;
  };
  router.get(
    ['/protocols/count', '/protocols/count/'],
    describe({
      summary: 'Count of the protocols matching the filters',
      description:
        'How many protocols GET /v4/protocols lists with the same filters, over every page (`page` and `items` are accepted and ignored).',
      response: countSchema,
      example: 4,
    }),
    validate({ query: listProtocolsQuery }),
    protocols,
  );
  router.get(
    ['/templates/count', '/templates/count/'],
    describe({
      summary: 'Count of the templates matching the filters',
      description:
        'How many campaign templates GET /v4/templates lists with the same filters, over every page (`page` and `items` are accepted and ignored).',
      response: countSchema,
      example: 12,
    }),
    validate({ query: listTemplatesQuery }),
    templates,
  );
  return router;
}
