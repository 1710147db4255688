import type Router from '@koa/router';
import type { Schema } from '../validate.js';
import { referenceComponents } from './components.js';
import { exampleOf } from './examples.js';
import { operationDescription } from './operationDescription.js';
import { problemResponse, problemResponseOf, problemSchema } from './problem.js';
import { requestBodyOf } from './requestBody.js';
import { routeOperations, type RouteOperation } from './routeLayers.js';
import { orderTags } from './tagOrder.js';

export const OPENAPI_VERSION = '1.0.1';

export type BuildOpenApiParams = { router: Router; serverUrl?: string };
export type BuildOpenApiResult = { document: OpenApiDocument; undocumented: string[] };
export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};

type Properties = Record<string, Schema>;
const propertiesOf = (schema: Schema | undefined): Properties => (schema?.['properties'] ?? {}) as Properties;
const requiredOf = (schema: Schema | undefined): string[] => (schema?.['required'] ?? []) as string[];

function parameters(op: RouteOperation): unknown[] {
  const templateNames = [...op.openApiPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const params = templateNames.map((name) => {
    const own = op.renamedParams[name] ?? name;
    return {
      name,
      in: 'path',
      required: true,
      ...(own !== name ? { description: `The ${own} (named \`${own}\` by this route)` } : {}),
      schema: propertiesOf(op.schemas.params)[own] ?? { type: 'string' },
    };
  });
  const required = requiredOf(op.schemas.query);
  const query = Object.entries(propertiesOf(op.schemas.query)).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema,
    ...(schema['type'] === 'array' ? { style: 'form', explode: true } : {}),
  }));
  return [...params, ...query];
}

function responses(op: RouteOperation): Record<string, unknown> {
  const doc = op.doc!;
  const out: Record<string, unknown> = {
    [String(doc.status ?? 200)]: {
      description: doc.summary,
      ...(doc.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(doc.headers).map(([name, description]) => [
                name,
                { description, schema: { type: 'string' } },
              ]),
            ),
          }
        : {}),
      content: Object.fromEntries(
        [[doc.contentType ?? 'application/json', doc.response], ...Object.entries(doc.also ?? {})].map(
          ([type, schema], i) => [
            type,
            { schema, example: i === 0 && doc.example !== undefined ? doc.example : exampleOf(schema) },
          ],
        ),
      ),
    },
  };
  for (const [status, extra] of Object.entries(doc.responses ?? {})) {
    if (extra.problem) {
      out[status] = problemResponseOf(extra.problem(), extra.description, op);
      continue;
    }
    out[status] = {
      description: extra.description,
      ...(extra.schema
        ? {
            content: {
              [extra.contentType ?? 'application/json']: { schema: extra.schema, example: exampleOf(extra.schema) },
            },
          }
        : {}),
    };
  }
  const problems = new Set<number>(doc.errors ?? []);
  if (op.schemas.query || op.schemas.params || op.schemas.body) problems.add(400);
  if (op.paramNames.length) problems.add(404);
  if (op.schemas.body) problems.add(413).add(415);
  if (op.security) problems.add(401);
  if (op.security?.some((s) => 'backOffice' in s)) problems.add(403);
  for (const status of [...problems].sort()) out[String(status)] ??= problemResponse(status, undefined, op);
  out['default'] = problemResponse(
    429,
    'Any other problem: 405, 429 (rate limit, with Retry-After), 5xx (502/503 when a backing service is down)',
    op,
  );
  return out;
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `get /v4/opportunities/{id}/campaigns` → `getOpportunitiesByIdCampaigns`. */
function operationIdOf(op: RouteOperation): string {
  const words = op.openApiPath
    .split(/[/-]/)
    .filter((s) => s && s !== 'v4')
    .map((s) => (s.startsWith('{') ? `By${capitalize(s.slice(1, -1))}` : capitalize(s.replace(/[^A-Za-z0-9]/g, ''))));
  return op.method + words.join('');
}

const tagOf = (op: RouteOperation) => op.openApiPath.split('/').filter((s) => s && s !== 'v4')[0] ?? 'root';

/**
 * The OpenAPI 3.1 document of every operation `router` serves, read from the router stack (issue
 * #8): parameters and bodies from `validate()` schemas, responses from `describe()` docs, security
 * from the guards. Operations without a `describe()` are returned in `undocumented` and left out.
 */
export function buildOpenApi({ router, serverUrl = '/' }: BuildOpenApiParams): BuildOpenApiResult {
  const components: Record<string, unknown> = {};
  const paths: OpenApiDocument['paths'] = {};
  const undocumented: string[] = [];
  for (const op of routeOperations(router)) {
    if (!op.doc) {
      undocumented.push(`${op.method.toUpperCase()} ${op.path}`);
      continue;
    }
    const item = (paths[op.openApiPath] ??= {});
    if (item[op.method]) continue; // the trailing-slash twin of an operation already listed
    item[op.method] = referenceComponents(
      {
        operationId: operationIdOf(op),
        summary: op.doc.summary,
        description: operationDescription(op),
        tags: [tagOf(op)],
        ...(op.security ? { security: op.security } : {}),
        parameters: parameters(op),
        ...(op.schemas.body ? { requestBody: requestBodyOf(op.schemas.body, op.doc.bodyExamples) } : {}),
        responses: responses(op),
      },
      components,
    ) as Record<string, unknown>;
  }
  referenceComponents({ problem: problemSchema }, components);
  const tags = orderTags(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((o) => o['tags'] as string[])),
  );
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: {
      title: 'Campaign Rewards Data and Configuration API',
      version: OPENAPI_VERSION,
      description:
        'Incentive reward campaigns, opportunities, rewards and configuration. Problems are RFC 9457 `application/problem+json` bodies. GraphQL is served at /graphql/v1.',
    },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }, {}],
    tags,
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: {
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'x-api-key',
          description: 'Developer API key (higher rate limits, gated routes)',
        },
        jwt: {
          type: 'apiKey',
          in: 'cookie',
          name: 'jwt',
          description:
            "Wallet session from POST /v4/auth/login (also accepted as Authorization: Bearer <jwt>). A POST, PUT, PATCH or DELETE carrying the cookie must come from this API's origin or one listed in CORS_ORIGINS (its Origin, else Sec-Fetch-Site), else 403 cross-site-request-refused",
        },
        backOffice: {
          type: 'http',
          scheme: 'bearer',
          description: 'Back-office credential in the authorization header (raw token or Bearer <token>)',
        },
      },
    },
  };
  return { document, undocumented };
}
