import type Router from '@koa/router';
import Koa from 'koa';
import { describeError } from '../internal/errors.js';
import type { ApiDeps } from './deps.js';
import { allowedMethods } from './middleware/allowedMethods.js';
import { bodyParser } from './middleware/bodyParser.js';
import { securityHeaders } from './middleware/securityHeaders.js';
import { cacheHeaders } from './middleware/cacheHeaders.js';
import { compression } from './middleware/compression.js';
import { cors } from './middleware/cors.js';
import { crossSiteRequests } from './middleware/crossSiteRequests.js';
import { errorHandler } from './middleware/errorHandler.js';
import { isClientGone } from './middleware/clientGone.js';
import { authenticate } from './middleware/auth.js';
import { canonicalPath, caseSensitive } from './middleware/canonicalPath.js';
import { clientKeyOf } from './middleware/clientAddress.js';
import { DEFAULT_RATE_LIMITS, rateLimit, type RateLimits } from './middleware/rateLimit.js';
import { addressScreen } from './middleware/addressScreen.js';
import { identityOf } from './identity/index.js';
import { requestLog } from './middleware/requestLog.js';
import { createRoutes } from './routes/index.js';
import { docsRouter } from './docs/router.js';
import { problemsRouter } from './problems/router.js';
import { graphqlRouter } from './graphql/router.js';
import { webRouter } from './web/webRouter.js';
import { metricsRouter } from './routes/metrics/router.js';
import { createHttpMetrics, type HttpMetrics } from './middleware/httpMetrics.js';

/**
 * The app's routers: the REST API under /v4 first, then the pages and explorers beside it (tests walk
 * the same list). `/metrics` adds the HTTP series of `http` when given (createApp's).
 */
export function createRouters(deps: ApiDeps, http?: HttpMetrics): { routes: Router; pageRouters: Router[] } {
  return {
    routes: caseSensitive(createRoutes(deps)),
    pageRouters: [
      metricsRouter(deps, http?.registry),
      docsRouter(),
      problemsRouter(),
      graphqlRouter(deps),
      webRouter({ distDir: deps.webDist }),
    ].map(caseSensitive),
  };
}

/** Builds the Koa application; never listens (api/server.ts does, tests use app.callback()). */
export function createApp(deps: ApiDeps): Koa {
  const app = new Koa();
  app.silent = true;
  app.on('error', (error: unknown, ctx?: Koa.Context) => {
    // A client that disconnected mid-answer is no fault of ours: info, not an error to page on.
    const gone = isClientGone(error, Boolean(ctx?.req.destroyed || ctx?.req.socket?.destroyed));
    deps.logger[gone ? 'info' : 'error']({
      msg: gone ? 'client closed the connection before the answer was sent' : 'request failed',
      request_id: ctx?.state?.requestId,
      method: ctx?.method,
      path: ctx?.path,
      err: describeError(error),
      stack: (error as Error)?.stack,
    });
  });
  const http = createHttpMetrics({ routers: () => [routes, ...pageRouters] });
  const { routes, pageRouters } = createRouters(deps, http);
  // First: the request count and duration cover every middleware and see the status sent.
  app.use(http.middleware);
  app.use(requestLog(deps.logger));
  app.use(securityHeaders());
  app.use(errorHandler);
  // One path spelling before any guard or router runs (README "Path spelling").
  app.use(canonicalPath());
  // Before authenticate and the rate limit: preflights are answered without touching PostgreSQL.
  app.use(cors({ allowedOrigins: deps.config.corsOrigins ?? [], routers: () => [routes, ...pageRouters] }));
  // Before authentication, the rate limit, body parsing and every router: a state-changing request
  // carrying the session cookie from a foreign page is refused whatever route it names (M1 of #29).
  app.use(
    crossSiteRequests({
      publicOrigin: deps.config.signIn.uri,
      allowedOrigins: deps.config.corsOrigins ?? [],
      trustedProxies: deps.config.trustedProxies,
    }),
  );
  // Limits come from config.rateLimits (env RATE_LIMITS); tests run unlimited unless they pass
  // limits, so suites firing many requests per second are not throttled.
  const rateLimits: RateLimits | undefined = deps.config.rateLimits;
  const limited = rateLimits !== undefined || deps.config.env !== 'test';
  // Behind a reverse proxy the client address comes from X-Forwarded-For as far as TRUSTED_PROXIES
  // allows; every per-address limit counts it under one key (an IPv6 client by its /64).
  const clientKey = clientKeyOf(deps.config.trustedProxies);
  // Before authenticate: an address flooding requests or unknown API keys is refused before any credential query.
  const requestsPerAddress = deps.config.clientLimits.requestsPerAddress;
  if (limited)
    app.use(addressScreen({ limits: rateLimits ?? DEFAULT_RATE_LIMITS, perAddress: requestsPerAddress, clientKey }));
  const identity = identityOf(deps);
  app.use(
    authenticate({
      jwtSecret: deps.config.jwtSecret,
      backOfficeToken: deps.config.backOfficeToken,
      lookup: identity.lookup,
      usage: identity.usage,
    }),
  );
  if (limited)
    app.use(
      rateLimit({
        pool: deps.pg,
        logger: deps.logger,
        limits: rateLimits,
        perAddress: requestsPerAddress,
        clientKey,
      }),
    );
  app.use(compression());
  app.use(cacheHeaders());
  app.use(bodyParser());
  app.use(routes.routes());
  app.use(allowedMethods(routes));
  // Beside the REST API, not operations of its OpenAPI document: Prometheus' text exposition (for
  // scrapers, at the root), the pages and the explorers.
  for (const router of pageRouters) {
    app.use(router.routes());
    app.use(allowedMethods(router));
  }
  return app;
}
