import Router from '@koa/router';
import { createHandler } from 'graphql-http/lib/use/koa';
import type { Context, Next } from 'koa';
import type { ApiDeps } from '../deps.js';
import type { AuthState } from '../identity/types.js';
import { createProofCache } from '../routes/users/proofs.js';
import { servePackageAssets, serveScript } from '../static/packageAssets.js';
import { createFormatError } from './formatError.js';
import { graphiqlHtml, GRAPHIQL_INIT_JS } from './graphiql.js';
import { queryLimitsRule } from './limits.js';
import { createLoaders } from './loaders.js';
import { createGraphqlSchema } from './schema.js';

export const GRAPHQL_PATH = '/graphql/v1';
const ASSETS = `${GRAPHQL_PATH}/assets`;

/** A browser navigating here (Accept prefers text/html) gets the explorer; API clients get GraphQL over HTTP. */
const wantsExplorer = (ctx: Context) => ctx.method === 'GET' && ctx.accepts('application/graphql-response+json', 'application/json', 'text/html') === 'text/html';

/**
 * POST (and GET for queries) /graphql/v1 through graphql-http's Koa handler, with per-request batch
 * loaders, depth and cost limits and coded errors; GET with Accept: text/html serves GraphiQL,
 * whose React and GraphiQL UMD builds are served by us from npm packages (works offline).
 */
export function graphqlRouter(deps: ApiDeps): Router {
  const router = new Router();
  const proofs = createProofCache({ db: deps.pg });
  // graphql-http hands the context factory the raw request only: the caller's identity rides on it.
  const identities = new WeakMap<object, AuthState>();
  const handler = createHandler({
    schema: createGraphqlSchema(),
    context: (req) => ({ deps, proofs, loaders: createLoaders(deps), auth: identities.get(req.raw as object) ?? null }),
    validationRules: [queryLimitsRule()],
    formatError: createFormatError(deps.logger),
  });
  const handle = (ctx: Context, next: Next) => {
    identities.set(ctx.req, ctx.state as AuthState);
    return handler(ctx, next);
  };
  router.get(GRAPHQL_PATH, async (ctx, next) => {
    if (!wantsExplorer(ctx)) return handle(ctx, next);
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('cache-control', 'no-cache');
    ctx.body = graphiqlHtml(ASSETS);
  });
  router.post(GRAPHQL_PATH, (ctx, next) => handle(ctx, next));
  serveScript(router, `${ASSETS}/init.js`, GRAPHIQL_INIT_JS);
  servePackageAssets(router, ASSETS, {
    'react.production.min.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'application/javascript; charset=utf-8' },
    'react-dom.production.min.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'application/javascript; charset=utf-8' },
    'graphiql.min.js': { pkg: 'graphiql', file: 'dist/index.umd.js', type: 'application/javascript; charset=utf-8' },
    'graphiql.min.css': { pkg: 'graphiql', file: 'dist/style.css', type: 'text/css; charset=utf-8' },
  });
  return router;
}
