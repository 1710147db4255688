import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Context, Next, ParameterizedContext } from 'koa';
import type { AuthState } from './identity/types.js';
import { ValidationError, type FieldError } from './errors.js';
import { coerceJsonStrings, numberErrors, parseFormJsonFields } from './inputShape.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * Shared ajv instance: query strings are coerced (numbers, booleans, arrays), defaults applied,
 * every error reported. Schemas are compiled once at load.
 */
export const ajv = addFormats(
  new Ajv({
    coerceTypes: 'array',
    useDefaults: true,
    allErrors: true,
    allowUnionTypes: true,
    strict: true,
    verbose: true,
  }),
);
ajv.addKeyword({ keyword: 'x-comma-list', schemaType: 'array' });
ajv.addKeyword({ keyword: 'x-accepts', schemaType: 'string' });
/**
 * The same without coercion, for JSON bodies: JSON keeps its types (`false` is not `"false"`, `null`
 * not 0, a scalar not a list); only strings are converted first (coerceJsonStrings).
 */
export const ajvJson = addFormats(
  new Ajv({
    coerceTypes: false,
    useDefaults: true,
    allErrors: true,
    allowUnionTypes: true,
    strict: true,
    verbose: true,
  }),
);
ajvJson.addKeyword({ keyword: 'x-comma-list', schemaType: 'array' });
ajvJson.addKeyword({ keyword: 'x-accepts', schemaType: 'string' });

export type Schema = Record<string, unknown>;

/**
 * A request schema for validate(): plain JSON Schema declared `as const`, so the validated value's
 * type is derived from it (FromSchema). Custom keywords (`x-comma-list`) ride along: ajv knows them,
 * FromSchema ignores them.
 */
export type RequestSchema = Exclude<JSONSchema, boolean>;

/** ajv errors → one `{ field, message }` per bad field, the field named as the client sent it. */
export function toFieldErrors(errors: ErrorObject[] | null | undefined, where: string): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of errors ?? []) {
    let field = e.instancePath.slice(1).replace(/\//g, '.');
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required')
      (field = [field, e.params['missingProperty']].filter(Boolean).join('.')), (message = 'is required');
    if (e.keyword === 'additionalProperties')
      (field = [field, e.params['additionalProperty']].filter(Boolean).join('.')),
        (message = `is not an accepted ${where} field`);
    if (e.keyword === 'enum') message = `must be one of ${(e.params['allowedValues'] as unknown[]).join(', ')}`;
    if (e.keyword === 'pattern') message = patternMessage(e.parentSchema as PatternHints | undefined);
    const key = `${field}|${message}`;
    if (!seen.has(key)) seen.add(key), out.push({ field: field || where, message });
  }
  return out;
}

/** What a pattern-checked string schema may carry to explain itself (`x-accepts`, `x-comma-list`). */
type PatternHints = { 'x-comma-list'?: string[]; 'x-accepts'?: string };

/**
 * The message of a failed `pattern`: the accepted forms in words (issue 31: a client never sees a raw
 * regular expression). A schema states them in `x-accepts` ("a campaign id (…) or …"); a comma list
 * names its values; any other pattern says only that the format is wrong.
 */
function patternMessage(schema: PatternHints | undefined): string {
  if (schema?.['x-accepts']) return `must be ${schema['x-accepts']}`;
  if (schema?.['x-comma-list']) return `must be a comma-separated list of ${schema['x-comma-list'].join(', ')}`;
  return 'is not in the accepted format';
}

export type ValidateSchemas = { query?: RequestSchema; params?: RequestSchema; body?: RequestSchema };

/**
 * Hex strings the address and bytes32 patterns (fields.address, fields.bytes32) and the sign-in
 * signature pattern (api/routes/auth/schema.ts) guarantee, typed as viem's `0x${string}`.
 */
type HexPatterns = [
  { pattern: { type: 'string'; pattern: '^0x[0-9a-fA-F]{40}$' }; output: `0x${string}` },
  { pattern: { type: 'string'; pattern: '^0x[0-9a-fA-F]{64}$' }; output: `0x${string}` },
  { pattern: { type: 'string'; pattern: '^0x[a-fA-F0-9]*$' }; output: `0x${string}` },
];

/**
 * The validated value of one request schema (defaults present, see Validated); strings matching the
 * address and bytes32 patterns are typed `0x${string}`.
 */
export type InputOf<S extends RequestSchema> = FromSchema<S, { deserialize: HexPatterns }>;

/**
 * The values validate(S) leaves on ctx.state, typed from their schemas. A property with a `default`
 * is present (ajv's useDefaults fills it; FromSchema counts it as required). Coercion does not change
 * the declared types: query strings become the schema's numbers and booleans, a lone value an array
 * where the schema wants one. Comma lists (`x-comma-list`) stay strings; handlers split them.
 */
export type Validated<S extends ValidateSchemas> = {
  [K in keyof S & keyof ValidateSchemas]-?: S[K] extends RequestSchema ? InputOf<S[K]> : never;
};

/**
 * ctx.state behind validate(S): the validated input, the identity the global `authenticate`
 * middleware sets (AuthState), and whatever else middleware keeps there (request id, cache flags).
 */
export type ValidatedState<S extends ValidateSchemas> = Validated<S> & AuthState & { [key: string]: unknown };

/** The Koa context of a handler mounted behind validate(S). */
export type ValidatedContext<S extends ValidateSchemas> = ParameterizedContext<ValidatedState<S>>;

/** A route handler mounted behind validate(S): `ctx.state.query` / `.params` / `.body` arrive typed. */
export type Handler<S extends ValidateSchemas> = (ctx: ValidatedContext<S>) => void | Promise<void>;

/**
 * Koa middleware validating path params, query and body against their schemas. The coerced,
 * defaulted values are put on `ctx.state.query` / `.params` / `.body`; any failure is one 400
 * naming every bad field. Handlers mounted after it declare `Handler<S>` (same schemas) to read them typed.
 */
export function validate<const S extends ValidateSchemas>(schemas: S): ValidatingMiddleware<S> {
  const compiled = Object.entries(schemas).map(
    ([where, schema]) => [where, ajv.compile(schema)] as [keyof ValidateSchemas, ValidateFunction],
  );
  const jsonBody = schemas.body ? ajvJson.compile(schemas.body) : undefined;
  const booleanKeys = new Set(
    Object.entries(schemaOf(schemas.query))
      .filter(([, p]) => p.type === 'boolean')
      .map(([key]) => key),
  );
  const listKeys = new Set(
    Object.entries(schemaOf(schemas.query))
      .filter(([, p]) => p.type === 'array')
      .map(([key]) => key),
  );
  const middleware = async (ctx: Context, next: Next): Promise<void> => {
    const errors: FieldError[] = [];
    for (const [where, coercing] of compiled) {
      const source =
        where === 'query'
          ? { ...ctx.query }
          : where === 'params'
            ? { ...ctx.params }
            : ((ctx.request as { body?: unknown }).body ?? {});
      // A JSON body keeps its types; query, path, form and multipart values arrive as strings and are coerced.
      const json = where === 'body' && jsonBody && isJsonBody(ctx);
      const value =
        where === 'query'
          ? splitCommaLists(numericBooleans(structuredClone(source), booleanKeys), listKeys)
          : json
            ? coerceJsonStrings(schemas.body as Parameters<typeof coerceJsonStrings>[0], structuredClone(source))
            : where === 'body'
              ? parseFormJsonFields(schemas.body as Parameters<typeof parseFormJsonFields>[0], structuredClone(source))
              : structuredClone(source);
      const check = json ? jsonBody! : coercing;
      if (check(value)) ctx.state[where] = value;
      else errors.push(...toFieldErrors(check.errors, where));
      errors.push(...nulCharacterErrors(value, where), ...numberErrors(value, where));
    }
    if (errors.length) throw new ValidationError(errors);
    await next();
  };
  // The schemas ride on the middleware so the OpenAPI generator documents exactly what is validated.
  return Object.assign(middleware, { schemas });
}

/** The body arrived as JSON (application/json or +json); a request without a Content-Type is treated like a form. */
function isJsonBody(ctx: Context): boolean {
  return typeof ctx.request.is === 'function' && Boolean(ctx.request.is('json', '+json'));
}

/** The middleware `validate()` returns, carrying its schemas for api/openapi. */
export type ValidatingMiddleware<S extends ValidateSchemas = ValidateSchemas> = ((
  ctx: Context,
  next: Next,
) => Promise<void>) & { schemas: S };

/** PostgreSQL text cannot hold U+0000: such a string anywhere in the input is a 400 naming its field, never a 500. */
function nulCharacterErrors(value: unknown, where: string, path = ''): FieldError[] {
  if (typeof value === 'string')
    return value.includes('\u0000') ? [{ field: path || where, message: 'must not contain NUL characters' }] : [];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => [
    ...(key.includes('\u0000')
      ? [{ field: path || where, message: 'must not have a key containing NUL characters' }]
      : []),
    ...nulCharacterErrors(v, where, path ? `${path}.${key}` : key),
  ]);
}

function schemaOf(schema: Schema | undefined): Record<string, { type?: unknown }> {
  return (schema?.['properties'] ?? {}) as Record<string, { type?: unknown }>;
}

/**
 * Array query parameters take repeated keys (`?ids=a&ids=b`) and comma lists (`?ids=a,b`) alike, in
 * every route (issue 31: `ids=a,b` was one id "a,b"): each value is split on commas, blanks dropped.
 * Items of these lists never contain a comma (slugs, ids, enum values).
 */
function splitCommaLists(query: Record<string, unknown>, listKeys: ReadonlySet<string>): Record<string, unknown> {
  for (const [key, value] of Object.entries(query)) {
    if (!listKeys.has(key) || (typeof value !== 'string' && !Array.isArray(value))) continue;
    const parts = ([] as unknown[]).concat(value).flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
    query[key] = parts.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
  }
  return query;
}

/** Query booleans also arrive as `1` / `0`; ajv itself coerces only `true` / `false`. */
function numericBooleans(query: Record<string, unknown>, booleanKeys: ReadonlySet<string>): Record<string, unknown> {
  for (const [key, value] of Object.entries(query)) {
    if (booleanKeys.has(key) && (value === '1' || value === '0')) query[key] = value === '1';
  }
  return query;
}

/** Schema fragments shared by routes. */
/** A decimal integer in 0..2^31-1 (PostgreSQL `integer` and Elasticsearch `integer` columns: chain ids, types). */
const INT32 =
  '(\\d{1,9}|1\\d{9}|20\\d{8}|21[0-3]\\d{7}|214[0-6]\\d{6}|2147[0-3]\\d{5}|21474[0-7]\\d{4}|214748[0-2]\\d{3}|2147483[0-5]\\d{2}|21474836[0-3]\\d|214748364[0-7])';

export const fields = {
  /** Regex source of a decimal int32, for patterns embedding one (lists, composite ids). */
  int32Pattern: INT32,
  page: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 },
  items: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  /** Chain ids are PostgreSQL `integer`s: anything larger cannot exist. */
  chainId: { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1 },
  /** Unix seconds within JavaScript's date range (8.64e12 s, year 275760; PostgreSQL timestamps end later, in 294276). */
  unixSeconds: { type: 'integer', minimum: 0, maximum: 8_640_000_000_000 },
  boolean: { type: 'boolean' },
  /** A 20-byte hex address, any case. */
  address: {
    type: 'string',
    pattern: '^0x[0-9a-fA-F]{40}$',
    'x-accepts': 'a 20-byte hex address (0x and 40 hex digits)',
  },
  /** A 32-byte hex value (hashes, roots, on-chain campaign ids). */
  bytes32: {
    type: 'string',
    pattern: '^0x[0-9a-fA-F]{64}$',
    'x-accepts': 'a 32-byte hex value (0x and 64 hex digits)',
  },
  /** Accepted forms of a campaign path id (`x-accepts` of the campaign by-id routes). */
  campaignIdAccepts:
    'a campaign id (decimal, up to 20 digits) or distributionChainId-campaignId (e.g. 1-0x… with the 32-byte on-chain id)',
  /** Comma-separated list of enum values, e.g. `LIVE,PAST`. */
  commaList: (values: readonly string[]) =>
    ({
      type: 'string',
      pattern: `^(${values.join('|')})(,(${values.join('|')}))*$`,
      'x-comma-list': [...values],
    }) as const,
} as const;
