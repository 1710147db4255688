import type Router from '@koa/router';
import {
  requireApiKey,
  requireBackOffice,
  requireCredential,
  requireCredentialOrBackOffice,
  requireSession,
} from '../middleware/auth.js';
import type { ValidateSchemas } from '../validate.js';
import type { RouteDoc } from './describe.js';

type Layer = Router['stack'][number];

/** One mounted operation as read from a router stack: its documentation, schemas and guards. */
export type RouteOperation = {
  method: string;
  /** Koa path as mounted, e.g. /v4/opportunities/:id. */
  path: string;
  /** OpenAPI path, e.g. /v4/opportunities/{id}; trailing-slash twins collapse into one. */
  openApiPath: string;
  paramNames: string[];
  /** Path parameter name in `openApiPath` → the route's own name, where a twin template names it differently. */
  renamedParams: Record<string, string>;
  doc?: RouteDoc;
  schemas: ValidateSchemas;
  security?: Record<string, string[]>[];
};

/** Security requirement of each route guard (api/middleware/auth.ts), matched by identity. */
const GUARD_SECURITY = new Map<unknown, Record<string, string[]>[]>([
  [requireSession, [{ jwt: [] }]],
  [requireApiKey, [{ apiKey: [] }]],
  [requireCredential, [{ jwt: [] }, { apiKey: [] }]],
  [requireBackOffice, [{ backOffice: [] }]],
  [requireCredentialOrBackOffice, [{ jwt: [] }, { apiKey: [] }, { backOffice: [] }]],
]);

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const stripSlash = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);

/**
 * Every (method, path) a router serves, with what its middleware says about it: `describe()` doc,
 * `validate()` schemas and guards (including guards mounted with `router.use` on a prefix).
 * HEAD is implied by GET and left out.
 */
export function routeOperations(router: Router): RouteOperation[] {
  const layers = router.stack as Layer[];
  const useLayers = layers.filter((l) => l.methods.length === 0);
  const out: RouteOperation[] = [];
  for (const layer of layers) {
    if (layer.methods.length === 0 || typeof layer.path !== 'string') continue;
    const middleware = [
      ...useLayers.filter((u) => u.match(layer.path as string)).flatMap((u) => u.stack),
      ...layer.stack,
    ] as unknown[];
    const doc = middleware.map((m) => (m as { routeDoc?: RouteDoc }).routeDoc).find(Boolean);
    const schemas = Object.assign(
      {},
      ...middleware.map((m) => (m as { schemas?: ValidateSchemas }).schemas ?? {}),
    ) as ValidateSchemas;
    const security = middleware.map((m) => GUARD_SECURITY.get(m)).find(Boolean);
    for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
      out.push({
        method: method.toLowerCase(),
        path: layer.path,
        openApiPath: toOpenApiPath(stripSlash(layer.path)),
        paramNames: layer.paramNames.map((p) => String(p.name)),
        renamedParams: {},
        doc,
        schemas,
        security,
      });
    }
  }
  return unifyTemplates(out);
}

/**
 * OpenAPI forbids two path templates differing only by parameter names (GET /campaign-lists/{owner}
 * vs PATCH /campaign-lists/{name}): later ones take the first template's names, positionally.
 */
function unifyTemplates(ops: RouteOperation[]): RouteOperation[] {
  const firstByShape = new Map<string, RouteOperation>();
  for (const op of ops) {
    const shape = op.openApiPath.replace(/\{[^}]+\}/g, '{}');
    const first = firstByShape.get(shape);
    if (!first) {
      firstByShape.set(shape, op);
      continue;
    }
    if (first.openApiPath === op.openApiPath) continue;
    const names = [...first.openApiPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const own = [...op.openApiPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    op.renamedParams = Object.fromEntries(names.map((n, i) => [n, own[i]!]).filter(([n, o]) => n !== o));
    op.openApiPath = first.openApiPath;
  }
  return ops;
}
