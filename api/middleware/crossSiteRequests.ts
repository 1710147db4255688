import type { Context, Next } from 'koa';
import type { Config } from '../../internal/config.js';
import { AppError } from '../errors.js';
import { PROBLEMS } from '../problems/registry.js';

/** Methods that never change state (RFC 9110 §9.2.1); every other method is checked. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** `Sec-Fetch-Site` values of a request a page on another origin made (no `Origin` to name it). */
const FOREIGN_FETCH_SITES = new Set(['cross-site', 'same-site']);
/** The session cookie: the one credential a browser attaches by itself (api/middleware/auth.ts). */
const SESSION_COOKIE = 'jwt';
/** How much of a refused `Origin` the problem body repeats (the header may be up to 512 KiB). */
const ORIGIN_ECHO_MAX = 200;

export type CrossSiteRequestsParams = {
  /** The API's configured origin (PUBLIC_BASE_URL, config.signIn.uri). */
  publicOrigin: string;
  /** Origins allowed to send credentialed requests (CORS_ORIGINS, config.corsOrigins). */
  allowedOrigins: readonly string[];
  /** TRUSTED_PROXIES: only then is `X-Forwarded-Proto` believed for the request's own origin. */
  trustedProxies: Config['trustedProxies'];
};

/** What a request says about the page that sent it. */
export type RequestSource = {
  method: string;
  /** `Origin` header, '' when absent. */
  origin: string;
  /** `Sec-Fetch-Site` header, '' when absent. */
  fetchSite: string;
  /** Whether the `jwt` cookie is attached (valid or not: it is what the browser adds by itself). */
  hasSessionCookie: boolean;
  /** Whether the request would set the session cookie (sign-in): checked as if the cookie were there. */
  createsSession?: boolean;
};

/**
 * Routes that set the session cookie: a page elsewhere must not sign the browser in either (login
 * CSRF: the attacker's own signed message would put the attacker's session in the victim's browser).
 */
export const SESSION_CREATING_PATHS: readonly string[] = ['/v4/auth/login'];

/** Why a request was refused, for the problem body; null when it may proceed. */
export type CrossSiteRefusal = { origin: string } | { fetchSite: string } | null;

/**
 * Pure rule (README "Cross-site requests", M1 of #29): a state-changing request carrying the
 * session cookie must come from an origin `isTrusted` accepts (this API's own, CORS_ORIGINS).
 * - `Origin` present: it must be trusted; `null` (sandboxed frames, cross-origin redirects,
 *   file: pages) never is.
 * - no `Origin`: `Sec-Fetch-Site: cross-site | same-site` is a page elsewhere and is refused;
 *   without either header it is not a browser page (curl, servers) and passes.
 * Requests without the cookie pass whatever their origin: `x-api-key`, `Authorization: Bearer` and
 * the back-office token are headers a foreign page cannot make a browser add without a CORS
 * preflight, which api/middleware/cors.ts refuses to unlisted origins. The cookie is checked even
 * when such a header comes with it: when both are sent the session wins (api/middleware/auth.ts).
 * A sign-in (`createsSession`) is checked with or without the cookie.
 */
export function crossSiteRefusal(source: RequestSource, isTrusted: (origin: string) => boolean): CrossSiteRefusal {
  if (SAFE_METHODS.has(source.method) || !(source.hasSessionCookie || source.createsSession)) return null;
  if (source.origin) return isTrusted(source.origin.toLowerCase()) ? null : { origin: source.origin };
  const site = source.fetchSite.toLowerCase();
  return FOREIGN_FETCH_SITES.has(site) ? { fetchSite: site } : null;
}

/**
 * The origin a browser names when a page of this server sends the request: the scheme (from
 * `X-Forwarded-Proto` behind TRUSTED_PROXIES, else the socket's) and the `Host` the browser
 * addressed. A foreign page cannot choose our Host header, so an `Origin` equal to it is
 * same-origin; this keeps the pages working when reached by another name than PUBLIC_BASE_URL
 * (localhost vs 127.0.0.1, a proxy's port). Null when Host is not a valid authority.
 */
export function requestOriginOf(ctx: Context, trustedProxies: Config['trustedProxies']): string | null {
  const forwarded = trustedProxies ? ctx.get('x-forwarded-proto').split(',')[0]!.trim().toLowerCase() : '';
  const scheme = forwarded === 'http' || forwarded === 'https' ? forwarded : ctx.secure ? 'https' : 'http';
  // Koa's ctx.host is the Host header (or HTTP/2 :authority); X-Forwarded-Host is ignored (app.proxy is off).
  if (!ctx.host) return null;
  try {
    return new URL(`${scheme}://${ctx.host}`).origin;
  } catch {
    return null;
  }
}

/**
 * Refuses cross-site request forgery (M1 of #29) with a 403 problem before authentication, the
 * rate limit, body parsing and every router, so no route can skip it. See `crossSiteRefusal`.
 */
export function crossSiteRequests({ publicOrigin, allowedOrigins, trustedProxies }: CrossSiteRequestsParams) {
  const configured = new Set([new URL(publicOrigin).origin, ...allowedOrigins]);
  return async (ctx: Context, next: Next): Promise<void> => {
    const source: RequestSource = {
      method: ctx.method,
      origin: ctx.get('origin'),
      fetchSite: ctx.get('sec-fetch-site'),
      hasSessionCookie: ctx.cookies.get(SESSION_COOKIE) !== undefined,
      createsSession: SESSION_CREATING_PATHS.includes(ctx.path.replace(/(.)\/$/, '$1')),
    };
    const isTrusted = (origin: string) => configured.has(origin) || origin === requestOriginOf(ctx, trustedProxies);
    const refusal = crossSiteRefusal(source, isTrusted);
    if (refusal) throw refusalError(ctx.method, refusal);
    return next();
  };
}

function refusalError(method: string, refusal: NonNullable<CrossSiteRefusal>): AppError {
  const from =
    'origin' in refusal
      ? `from origin ${refusal.origin.slice(0, ORIGIN_ECHO_MAX)}`
      : `from another site (Sec-Fetch-Site: ${refusal.fetchSite}, no Origin)`;
  return new AppError(
    PROBLEMS.CROSS_SITE_REQUEST_REFUSED,
    `Cross-site request refused: a ${method} carrying or setting the session cookie ${from}, which is neither this API's origin nor listed in CORS_ORIGINS. Send it from an allowed origin, or authenticate with x-api-key or Authorization: Bearer instead of the cookie.`,
    {
      extensions:
        'origin' in refusal ? { origin: refusal.origin.slice(0, ORIGIN_ECHO_MAX) } : { fetchSite: refusal.fetchSite },
    },
  );
}
