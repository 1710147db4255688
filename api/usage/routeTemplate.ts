/**
 * Pure: the route template a request matched, as usage keys name it (`POST /v4/developer/keys`,
 * `GET /v4/auth/nonce/:address`). @koa/router reports a route registered as `/` under a prefix as
 * its regex source (`/v4/developer/keys(?:\/|$)`): that tail is dropped, and a trailing slash too.
 */
export function routeTemplate(matched: string | undefined): string {
  if (!matched) return '(unmatched)';
  const path = matched.replace(/\(\?:\\\/\|\$\)$/, '').replace(/\\\//g, '/');
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path || '/';
}
