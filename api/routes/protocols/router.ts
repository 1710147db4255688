import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { getProtocolHandler, listProtocolsHandler } from './handlers.js';
import { listProtocolsQuery, protocolIdParams } from '../../reads/protocols/schema.js';
import { describe } from '../../openapi/describe.js';
import { protocolSchema } from '../../openapi/records.js';
import { arr } from '../../openapi/schemaHelpers.js';

/** /v4/protocols: the protocol catalogue with aggregated opportunity figures. */
export function protocolsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/protocols', '/protocols/'],
    describe({
      summary: 'Supported protocols with aggregated opportunity figures',
      description:
        "Every protocol we know (the registry of the campaign types naming one, as the back office corrected it, and those the back office added with POST /v4/protocols) with the daily rewards and live campaign count of its opportunities (an opportunity counts for the protocol the back office set on it, else its campaign type's); filter by `id`, `ids`, `name`, `tags`. With an opportunity filter (`opportunityTag`, `opportunityChain`, `status`, `tokenTypes`) only protocols with a matching opportunity are listed; without one, a protocol without opportunities is listed with zero figures. `test` adds test chains' opportunities to the figures.",
      response: arr(protocolSchema),
    }),
    validate({ query: listProtocolsQuery }),
    listProtocolsHandler(deps),
  );
  router.get(
    ['/protocols/:id', '/protocols/:id/'],
    describe({
      summary: 'One protocol with the figures of its opportunities',
      description:
        'A protocol of GET /v4/protocols by id (a registered or back-office-added one; 404 for another), with the daily rewards and live campaigns of all its opportunities, test chains included.',
      response: protocolSchema,
      errors: [404],
    }),
    validate({ params: protocolIdParams }),
    getProtocolHandler(deps),
  );
  return router;
}
