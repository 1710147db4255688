import Router from '@koa/router';
import { describe } from './describe.js';
import { buildOpenApi, type OpenApiDocument } from './buildOpenApi.js';

const documentSchema = {
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { type: 'string', const: '3.1.0' },
    info: { type: 'object' },
    paths: { type: 'object' },
    components: { type: 'object' },
  },
} as const;

/**
 * GET /openapi.json (mounted under /v4): the OpenAPI 3.1 document of `routes()`, built once from the
 * router stacks on first request (the routes are complete by then).
 */
export function openApiRouter(routes: () => Router): Router {
  const router = new Router();
  let document: OpenApiDocument | undefined;
  /** The document serialized once (800 KB: stringified per request before, on the path of /docs' first paint). */
  let body: string | undefined;
  router.get(
    '/openapi.json',
    describe({
      summary: 'The OpenAPI 3.1 document of this API',
      description: 'This document: every operation the API serves, built from the mounted routes and their validators.',
      response: documentSchema,
    }),
    (ctx) => {
      document ??= buildOpenApi({ router: routes() }).document;
      body ??= JSON.stringify(document);
      ctx.type = 'application/json';
      ctx.body = body;
    },
  );
  return router;
}
