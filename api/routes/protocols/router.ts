import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { listProtocolsHandler } from './handlers.js';
import { listProtocolsQuery } from '../../reads/protocols/schema.js';
import { describe } from '../../openapi/describe.js';
import { protocolSchema } from '../../openapi/records.js';
import { arr } from '../../openapi/schemaHelpers.js';

/** /v4/protocols: supported protocols with aggregated opportunity figures. */
export function protocolsRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/protocols', '/protocols/'],
    describe({
      summary: 'Supported protocols with aggregated opportunity figures',
      description:
        'Protocols with the daily rewards and live campaign count of their opportunities; filter by `id`, `ids`, `name`, `tags`, or by the opportunities they have (`opportunityTag`, `opportunityChain`, `status`).',
      response: arr(protocolSchema),
    }),
    validate({ query: listProtocolsQuery }),
    listProtocolsHandler(deps),
  );
  return router;
}
