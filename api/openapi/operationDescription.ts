import { PRIVATE_CACHE_CONTROL, publicCacheControl } from '../middleware/cacheHeaders.js';
import type { Schema } from '../validate.js';
import type { RouteOperation } from './routeLayers.js';

/** Who may call an operation, by security scheme (the names of buildOpenApi's securitySchemes). */
const CALLERS: Record<string, string> = {
  jwt: 'a wallet session (`jwt` cookie or Bearer token from POST /v4/auth/login)',
  apiKey: 'a developer API key (`x-api-key`)',
  backOffice: 'the back office (its credential in `authorization`)',
};

function accessLine(op: RouteOperation): string {
  if (!op.security) return '**Access:** public; an `x-api-key` raises the rate limit.';
  const who = op.security.flatMap((requirement) => Object.keys(requirement).map((name) => CALLERS[name] ?? name));
  return `**Access:** ${who.join(', or ')}; otherwise 401${op.security.some((s) => 'backOffice' in s) ? ' (403 for a credential without the right)' : ''}.`;
}

function pagingLine(query: Schema | undefined): string | undefined {
  const properties = (query?.['properties'] ?? {}) as Record<string, Schema>;
  const size = properties['items'] ? 'items' : properties['pageSize'] ? 'pageSize' : undefined;
  if (!properties['page'] || !size) return undefined;
  const { default: byDefault, maximum } = properties[size]!;
  return `**Paging:** \`page\` counts from 0; \`${size}\` per page${byDefault !== undefined ? `, default ${String(byDefault)}` : ''}${maximum !== undefined ? `, at most ${String(maximum)}` : ''}.`;
}

function cachingLine(op: RouteOperation, own: string | undefined): string | undefined {
  if (op.method !== 'get') return undefined;
  if (own) return `**Caching:** \`Cache-Control: ${own}\`.`;
  if (op.security)
    return `**Caching:** \`Cache-Control: ${PRIVATE_CACHE_CONTROL}\` (credentials make an answer private).`;
  return `**Caching:** \`Cache-Control: ${publicCacheControl(op.path)}\` with a weak ETag (304 on \`If-None-Match\`); \`${PRIVATE_CACHE_CONTROL}\` when credentials are sent or \`showPrivate=true\`.`;
}

/**
 * The description of an operation in the OpenAPI document: the route's own text (what it answers,
 * rules and limits), then the lines every operation shares, derived from what is mounted so they
 * cannot drift: who may call it (its guards), paging (its query schema) and caching (the rules of
 * api/middleware/cacheHeaders.ts, or the Cache-Control the route sets itself).
 */
export function operationDescription(op: RouteOperation): string {
  const doc = op.doc!;
  return [doc.description, accessLine(op), pagingLine(op.schemas.query), cachingLine(op, doc.cacheControl)]
    .filter(Boolean)
    .join('\n\n');
}
