import type Router from '@koa/router';
import {
  requireApiKey,
  requireBackOffice,
  requireCredential,
  requireCredentialOrBackOffice,
  requireSession,
} from './auth.js';

type Layer = Router['stack'][number];

/** What one (path, method) of the router stacks takes from a browser, read from its middleware. */
export type CorsRoute = {
  /** A guard demands a cookie session, an `x-api-key` or the back-office credential: only listed origins may call it. */
  credentialed: boolean;
  /** Request headers the route reads beyond the CORS-safelisted ones (lower-case). */
  headers: string[];
};

/** Headers a guard reads: the session comes as the `jwt` cookie or `Authorization: Bearer`, the back office in `authorization`. */
const GUARD_HEADERS = new Map<unknown, string[]>([
  [requireSession, ['authorization']],
  [requireApiKey, ['x-api-key']],
  [requireCredential, ['authorization', 'x-api-key']],
  [requireBackOffice, ['authorization']],
  [requireCredentialOrBackOffice, ['authorization', 'x-api-key']],
]);

/**
 * Read on every route (authenticate, requestLog): the optional API key (rate-limit tier), the
 * session as `Authorization: Bearer` (e.g. `showPrivate`; preflights offer it to listed origins
 * only), the request id.
 */
const EVERY_ROUTE_HEADERS = ['authorization', 'x-api-key', 'x-request-id', 'x-audit-actor'];
/** Read on every GET: conditional requests (cacheHeaders). */
const READ_HEADERS = ['if-none-match', 'if-modified-since'];

/**
 * Marks a middleware or handler as reading request headers of its own (e.g. `Idempotency-Key`),
 * so CORS preflights allow them. Returns `fn` itself.
 */
export function acceptsHeaders<F extends object>(fn: F, headers: string[]): F {
  return Object.assign(fn, { acceptsHeaders: headers.map((h) => h.toLowerCase()) });
}

const hasBody = (fns: unknown[]) => fns.some((fn) => Boolean((fn as { schemas?: { body?: unknown } }).schemas?.body));

/** The CORS facts of one route layer with the prefix middleware (`router.use`) that runs before it. */
function describeLayer(layer: Layer, method: string, useLayers: Layer[]): CorsRoute {
  const fns = [...useLayers.flatMap((u) => u.stack), ...layer.stack] as unknown[];
  const guarded = fns.map((fn) => GUARD_HEADERS.get(fn)).filter((h): h is string[] => Boolean(h));
  const own = fns.flatMap((fn) => (fn as { acceptsHeaders?: string[] }).acceptsHeaders ?? []);
  // A body (JSON, urlencoded or multipart, api/middleware/bodyParser.ts) is sent with its content type;
  // routes without a validate() body schema (GraphQL) still take one on POST/PUT/PATCH.
  const body = hasBody(fns) || ['POST', 'PUT', 'PATCH'].includes(method) ? ['content-type'] : [];
  const reads = method === 'GET' || method === 'HEAD' ? READ_HEADERS : [];
  return {
    credentialed: guarded.length > 0,
    headers: [...new Set([...EVERY_ROUTE_HEADERS, ...guarded.flat(), ...body, ...reads, ...own])].sort(),
  };
}

/** Every method a path answers, each with its CORS facts; memoized per route pattern. */
export type CorsPath = Map<string, CorsRoute>;

/**
 * Looks paths up in the app's router stacks (the same stacks the OpenAPI document is built from):
 * for a path, each method some route serves and what that route takes (the first matching route
 * per method, as @koa/router runs them). Unknown paths give an empty map.
 */
export function createCorsRouteTable(routers: () => Router[]) {
  const cache = new Map<string, CorsPath>();
  return (path: string): CorsPath => {
    const out: CorsPath = new Map();
    let key = '';
    const matches: { layer: Layer; uses: Layer[] }[] = [];
    for (const router of routers()) {
      const matched = router.match(path, 'GET').path as Layer[];
      const uses = matched.filter((l) => l.methods.length === 0);
      for (const layer of matched)
        if (layer.methods.length > 0) matches.push({ layer, uses }), (key += `${String(layer.path)}|`);
    }
    const cached = cache.get(key);
    if (cached) return cached;
    for (const { layer, uses } of matches) {
      for (const method of layer.methods) if (!out.has(method)) out.set(method, describeLayer(layer, method, uses));
    }
    // Bounded by the number of distinct route combinations, not by paths (keys are route patterns).
    if (cache.size < 10_000) cache.set(key, out);
    return out;
  };
}
