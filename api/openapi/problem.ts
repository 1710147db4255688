import { AppError, ValidationError, type FieldError } from '../errors.js';
import { problemBodyOf } from '../middleware/errorHandler.js';
import { ajv, toFieldErrors, type Schema, type ValidateSchemas } from '../validate.js';
import { component } from './components.js';
import type { RouteOperation } from './routeLayers.js';
import { PROBLEMS, STATUS_TITLES } from '../problems/registry.js';

/** RFC 9457 problem body as written by api/middleware/errorHandler.ts. */
export const problemSchema = component('Problem', {
  type: 'object',
  description:
    'An RFC 9457 problem (`application/problem+json`). A 400 lists every bad field in `errors`, each named by its path as sent (`entries.0.value`, `campaignsParams.ERC20.0.targetToken`, a query or path parameter name, or `body` for an unparseable body).',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: {
      type: 'string',
      description:
        'URI reference naming the problem kind, e.g. /problems/validation-failed: a page of this API explaining the code (HTML, or JSON with Accept: application/json); GET /problems lists them all',
    },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string', description: 'What went wrong, in one sentence; for a 400, every field error joined' },
    instance: { type: 'string', description: 'The request path' },
    code: {
      type: 'string',
      enum: Object.keys(PROBLEMS),
      description:
        'Machine-readable problem code, e.g. VALIDATION_FAILED, NOT_FOUND, UNAUTHORIZED; each is explained at its `type` (GET /problems lists them)',
    },
    requestId: { type: 'string', description: 'The x-request-id of the request (quote it when reporting a problem)' },
    errors: {
      type: 'array',
      description: 'One entry per bad field (400 validation problems)',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: {
          field: { type: 'string', description: 'Dotted path of the field as sent, e.g. entries.0.address' },
          message: { type: 'string' },
        },
      },
    },
  },
});

const REQUEST_ID = '5f0c2a9e-7b1d-4e3a-9c8b-2d4f6a8e0b1c';

/** The example problem of each non-400 status: the error our code throws for it. */
const TYPICAL: Record<number, () => AppError> = {
  401: () => new AppError(PROBLEMS.UNAUTHORIZED, 'An API key is required in the x-api-key header'),
  403: () => new AppError(PROBLEMS.FORBIDDEN, 'This route is restricted to the back office'),
  404: () => new AppError(PROBLEMS.NOT_FOUND, 'No such resource'),
  409: () => new AppError(PROBLEMS.CONFLICT, 'The request conflicts with the current state (see detail)'),
  413: () => new AppError(PROBLEMS.PAYLOAD_TOO_LARGE, 'request entity too large'),
  415: () => new AppError(PROBLEMS.UNSUPPORTED_MEDIA_TYPE, 'Unsupported Media Type'),
  429: () =>
    new AppError(PROBLEMS.RATE_LIMITED, 'Rate limit of 10 requests per second exceeded; retry in 1 s', {
      extensions: { limit: 10 },
    }),
  503: () => new AppError(PROBLEMS.SERVICE_UNAVAILABLE, 'elasticsearch is unavailable, retry shortly'),
};

/** A value ajv refuses for `schema`, as a client might send it in a query string or body. */
function badValueOf(schema: Schema): unknown {
  const type = Array.isArray(schema['type']) ? schema['type'][0] : schema['type'];
  if (schema['enum']) return 'NOT_A_VALUE';
  if (type === 'integer' || type === 'number') return 'many';
  if (type === 'boolean') return 'maybe';
  if (type === 'string' && (schema['pattern'] || schema['minLength'] || schema['format'])) return '';
  if (type === 'array' || type === 'object') return 42;
  return undefined;
}

/**
 * The 400 an operation really answers for one bad input, computed by its own validators: a missing
 * required body or query field, else a wrong value of the first parameter that can be wrong, else an
 * unknown field. The example thus names an exact field with the exact message.
 */
function fieldErrorsOf(schemas: ValidateSchemas): FieldError[] {
  for (const where of ['body', 'query', 'params'] as const) {
    const schema = schemas[where] as Schema | undefined;
    if (!schema) continue;
    const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
    const attempts: Record<string, unknown>[] = [{}];
    for (const [name, property] of Object.entries(properties)) {
      const bad = badValueOf(property);
      if (bad !== undefined) attempts.push({ [name]: bad });
    }
    if (schema['additionalProperties'] === false) attempts.push({ unknownField: 'x' });
    const check = ajv.compile(schema);
    for (const attempt of attempts) {
      if (where === 'params' && !Object.keys(attempt).length) continue;
      if (!check(structuredClone(attempt))) return toFieldErrors(check.errors, where);
    }
  }
  return [{ field: 'body', message: 'could not be parsed' }];
}

/** The example problem body of `status` for `op` (a 400 names the exact field its validators would). */
export function problemExample(status: number, op: RouteOperation): Record<string, unknown> {
  const error = status === 400 ? new ValidationError(fieldErrorsOf(op.schemas)) : (TYPICAL[status] ?? TYPICAL[503]!)();
  const instance = op.openApiPath.replace(/\{[^}]+\}/g, '1');
  return JSON.parse(JSON.stringify(problemBodyOf(error, instance, REQUEST_ID))) as Record<string, unknown>;
}

/** An OpenAPI response object for a problem status, with an example when the operation is known. */
export function problemResponse(status: number, description = STATUS_TITLES[status] ?? 'Error', op?: RouteOperation) {
  return {
    description,
    content: {
      'application/problem+json': {
        schema: problemSchema,
        ...(op ? { example: problemExample(status || 503, op) } : {}),
      },
    },
  };
}

/**
 * An OpenAPI response object for a problem a route throws itself: its example is `error`'s body, and
 * the headers it sets (e.g. `Retry-After`) are documented.
 */
export function problemResponseOf(error: AppError, description: string, op: RouteOperation) {
  const instance = op.openApiPath.replace(/\{[^}]+\}/g, '1');
  const example = JSON.parse(JSON.stringify(problemBodyOf(error, instance, REQUEST_ID))) as Record<string, unknown>;
  return {
    description,
    ...(error.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(error.headers).map(([name, value]) => [
              name,
              { description: `Set with this problem, e.g. \`${value}\``, schema: { type: 'string' } },
            ]),
          ),
        }
      : {}),
    content: { 'application/problem+json': { schema: problemSchema, example } },
  };
}
