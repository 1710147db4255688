import Router from '@koa/router';
import { GraphQLError, NoSchemaIntrospectionCustomRule, parse, type Source } from 'graphql';
import { createHandler } from 'graphql-http/lib/use/koa';
import type { Context, Next } from 'koa';
import type { ApiDeps } from '../deps.js';
import { AppError, NotFoundError } from '../errors.js';
import { privateVisibility } from '../reads/campaign-access/visibility.js';
import type { AuthState } from '../identity/types.js';
import { createProofSource } from '../reads/rewardProofs.js';
import { servePackageAssets, serveScript } from '../static/packageAssets.js';
import { createFormatError } from './formatError.js';
import { graphiqlHtml, GRAPHIQL_INIT_JS } from './graphiql.js';
import { DEFAULT_QUERY_LIMITS, queryLimitsRule, validateWithinLimits } from './limits.js';
import { parseGraphqlRequest } from './transport.js';
import type { GraphqlContext } from './context.js';
import { createLoaders } from './loaders.js';
import { createGraphqlSchema } from './schema.js';
import { PROBLEMS } from '../problems/registry.js';

export const GRAPHQL_PATH = '/graphql/v1';
const ASSETS = `${GRAPHQL_PATH}/assets`;

/** A browser navigating here (Accept prefers text/html) gets the explorer; API clients get GraphQL over HTTP. */
const wantsExplorer = (ctx: Context) =>
  ctx.method === 'GET' &&
  ctx.accepts('application/graphql-response+json', 'application/json', 'text/html') === 'text/html';

/** GraphiQL loads only our own assets and talks to its own origin; no page may frame it. */
const EXPLORER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Tokens a document may have: a backstop to the body limit (the limits rule refuses far smaller documents). */
const MAX_TOKENS = 50_000;

/**
 * graphql `parse` bounded in tokens (QUERY_TOO_LARGE past them); a document nested past the
 * parser's stack is a parse error, not a 500.
 */
function parseBounded(source: string | Source) {
  try {
    return parse(source, { maxTokens: MAX_TOKENS });
  } catch (error) {
    if (error instanceof RangeError)
      throw new GraphQLError('Syntax Error: the document is nested too deeply', {
        extensions: { code: 'GRAPHQL_PARSE_FAILED' },
      });
    if (error instanceof GraphQLError && /contains more th[ae]n \d+ tokens/.test(error.message)) {
      throw new GraphQLError(`The document has more than ${MAX_TOKENS} tokens`, {
        extensions: { code: 'QUERY_TOO_LARGE', maxTokens: MAX_TOKENS },
      });
    }
    throw error;
  }
}

/**
 * POST (and GET for queries) /graphql/v1 through graphql-http's Koa handler, with per-request batch
 * loaders, depth and cost limits and coded errors; GET with Accept: text/html serves GraphiQL,
 * whose React and GraphiQL UMD builds are served by us from npm packages (works offline).
 */
export function graphqlRouter(deps: ApiDeps): Router {
  const router = new Router();
  const proofs = createProofSource({ db: deps.pg });
  const explorer = deps.config.graphqlExplorer;
  // graphql-http hands the context factory the raw request only: the caller's identity rides on it.
  const identities = new WeakMap<object, AuthState>();
  const contextOf = (auth: AuthState | null): GraphqlContext => {
    const visibility = (showPrivate: boolean) =>
      auth ? privateVisibility(deps, auth, showPrivate) : Promise.resolve('none' as const);
    return { deps, proofs, loaders: createLoaders(deps, visibility), auth };
  };
  const handler = createHandler({
    schema: createGraphqlSchema(),
    parse: parseBounded,
    parseRequestParams: parseGraphqlRequest,
    context: (req) => contextOf(identities.get(req.raw as object) ?? null),
    // The limits rule sees this request's variables; validateWithinLimits runs it before the others.
    validationRules: (_req, args, specified) => [
      queryLimitsRule(DEFAULT_QUERY_LIMITS, args.variableValues),
      ...specified,
      ...(explorer ? [] : [NoSchemaIntrospectionCustomRule]),
    ],
    validate: validateWithinLimits,
    formatError: createFormatError(deps.logger),
  });
  const handle = (ctx: Context, next: Next) => {
    if (ctx.method === 'POST' && !ctx.is('application/json')) {
      throw new AppError(
        PROBLEMS.UNSUPPORTED_MEDIA_TYPE,
        'A GraphQL request is a POST with a JSON body (application/json) or a GET with a query string',
        {
          errors: [{ field: 'content-type', message: 'must be application/json' }],
        },
      );
    }
    identities.set(ctx.req, ctx.state as AuthState);
    return handler(ctx, next);
  };
  router.get(GRAPHQL_PATH, async (ctx, next) => {
    // The same URL answers GraphiQL, graphql-response+json or json by Accept: shared caches must key on it.
    ctx.vary('Accept');
    if (!wantsExplorer(ctx)) return handle(ctx, next);
    if (!explorer)
      throw new NotFoundError(
        'The GraphQL explorer is off (GRAPHQL_EXPLORER); send queries with Accept: application/json',
      );
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('cache-control', 'no-cache');
    ctx.set('content-security-policy', EXPLORER_CSP);
    ctx.body = graphiqlHtml(ASSETS);
  });
  router.post(GRAPHQL_PATH, (ctx, next) => handle(ctx, next));
  if (!explorer) return router;
  serveScript(router, `${ASSETS}/init.js`, GRAPHIQL_INIT_JS);
  servePackageAssets(router, ASSETS, {
    'react.production.min.js': {
      pkg: 'react',
      file: 'umd/react.production.min.js',
      type: 'application/javascript; charset=utf-8',
    },
    'react-dom.production.min.js': {
      pkg: 'react-dom',
      file: 'umd/react-dom.production.min.js',
      type: 'application/javascript; charset=utf-8',
    },
    'graphiql.min.js': { pkg: 'graphiql', file: 'dist/index.umd.js', type: 'application/javascript; charset=utf-8' },
    'graphiql.min.css': { pkg: 'graphiql', file: 'dist/style.css', type: 'text/css; charset=utf-8' },
  });
  return router;
}
