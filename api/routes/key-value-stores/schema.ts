import { Ajv, type ValidateFunction } from 'ajv';
import { fields, type InputOf } from '../../validate.js';
import { STORE_TYPES as STORE_TYPE_DESCRIPTIONS } from '../../reads/enums/registry.js';

/** The store types, as the StoreType enum of GET /v4/enums lists them (one declaration). */
export type StoreType = keyof typeof STORE_TYPE_DESCRIPTIONS;
export const STORE_TYPES = Object.keys(STORE_TYPE_DESCRIPTIONS) as StoreType[];

/** Most entries one page of a listing returns; the default page size. */
export const MAX_PAGE_SIZE = 1000;
export const DEFAULT_PAGE_SIZE = 100;

const storeType = {
  type: 'string',
  enum: STORE_TYPES,
  description: 'Fixes the JSON shape of every entry value (see PUT /v4/key-value-stores/{key}/entries)',
} as const;
const sizeLimit = { type: 'integer', minimum: 1, maximum: 1_000_000 } as const;
const description = { type: 'string', maxLength: 512 } as const;
/** A store key suffix as the caller names it: 1 to 128 of a-z, A-Z, 0-9, `_` and `-`. */
const keySuffix = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  pattern: '^[a-zA-Z0-9_-]{1,128}$',
  description: 'Suffix of the store key; the canonical key returned at creation is `<owner address>:<suffix>`',
} as const;
/** A canonical key: `<owner address>:<suffix>` (what creation returns; used in every other path). */
const canonicalKey = {
  type: 'string',
  description: 'The canonical key returned at creation: `<owner address>:<suffix>`',
  minLength: 1,
  maxLength: 171,
  pattern: '^0x[a-fA-F0-9]{40}:[a-zA-Z0-9_-]{1,128}$',
  // Issue 31: writing with the short key (`my-store`) is the usual mistake; say which key to use.
  'x-accepts':
    'the store key returned at creation (`<owner address>:<key>`, e.g. 0xab…12:my-store), not the short key you chose',
} as const;
/** An entry address: a 20-byte or a 32-byte hex string (APR stores: a campaign id). */
const entryAddress = {
  type: 'string',
  pattern: '^0x([a-fA-F0-9]{40}|[a-fA-F0-9]{64})$',
  'x-accepts': 'a 20-byte address or a 32-byte hex value (0x and 40 or 64 hex digits)',
} as const;
const entryValue = {
  type: 'string',
  maxLength: 1024,
  description:
    "JSON text (at most 1024 characters) of an object whose shape the store's type fixes (listed under PUT /v4/key-value-stores/{key}/entries)",
} as const;
const entry = {
  type: 'object',
  additionalProperties: false,
  required: ['address', 'value'],
  properties: { address: entryAddress, value: entryValue },
} as const;
const none = { type: 'object', additionalProperties: false, properties: {} } as const;

export const storeKeyParams = { type: 'object', required: ['key'], properties: { key: canonicalKey } } as const;
export const entryParams = {
  type: 'object',
  required: ['key', 'address'],
  properties: { key: canonicalKey, address: entryAddress },
} as const;
export const noQuery = none;

/**
 * Who writes entries (docs/api-behaviour.md#key-value-stores): API_KEY (default) — the owner only; PUBLIC — also any
 * signed-in wallet, for the entry of its own address.
 */
export const ACCESS_MODES = ['API_KEY', 'PUBLIC'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];
const accessMode = { type: 'string', enum: ACCESS_MODES } as const;

export const createStoreBody = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'type'],
  properties: {
    key: keySuffix,
    type: storeType,
    description,
    sizeLimit,
    publicRead: { ...fields.boolean, default: true },
    accessMode: { ...accessMode, default: 'API_KEY' },
  },
} as const;
export type CreateStoreBody = InputOf<typeof createStoreBody>;

export const updateStoreBody = {
  type: 'object',
  additionalProperties: false,
  properties: { description, publicRead: fields.boolean, sizeLimit, accessMode },
} as const;
export type UpdateStoreBody = InputOf<typeof updateStoreBody>;

export const upsertEntryBody = entry;
export const batchUpsertBody = {
  type: 'object',
  additionalProperties: false,
  required: ['entries'],
  properties: { entries: { type: 'array', minItems: 1, maxItems: 1000, items: entry } },
} as const;
export type EntryInput = InputOf<typeof entry>;

/** Listing: `page` (0-based), `pageSize` and an exact `value` filter; also accepted as headers. */
export const listEntriesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
    value: entryValue,
  },
} as const;
export type ListEntriesQuery = InputOf<typeof listEntriesQuery>;

export const quotaBody = {
  type: 'object',
  additionalProperties: false,
  required: ['ownerAddress', 'maxConfigs', 'maxSizeLimit', 'allowedTypes'],
  properties: {
    ownerAddress: fields.address,
    maxConfigs: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    maxSizeLimit: sizeLimit,
    allowedTypes: { type: 'array', minItems: 1, uniqueItems: true, items: storeType },
  },
} as const;
export type QuotaBody = InputOf<typeof quotaBody>;

const address20 = { type: 'string', pattern: '^0x[a-fA-F0-9]{40}$' } as const;
const expiresAt = { type: 'integer', minimum: 0 } as const;
const note = { type: 'string', maxLength: 256 } as const;

/**
 * The JSON shape of an entry's `value` per store type (our own design, defined here). The
 * value is a JSON-encoded string; it is parsed and checked against the type's schema:
 * - WHITELIST `{ label?, expiresAt? }` and BLACKLIST `{ reason?, expiresAt? }` (Unix seconds);
 * - BOOST `{ multiplier, expiresAt? }`, a multiplier in (0, 100];
 * - REFERRER `{ referrer }`, the referring wallet;
 * - FORWARDER `{ recipient, sharePercent? }`, where rewards of the entry's address are forwarded (default 100 %);
 * - APR `{ apr, until? }`, an APR override in percent for the campaign id of the entry's address.
 */
export const VALUE_SCHEMAS: Record<StoreType, Record<string, unknown>> = {
  WHITELIST: { type: 'object', additionalProperties: false, properties: { label: note, expiresAt } },
  BLACKLIST: { type: 'object', additionalProperties: false, properties: { reason: note, expiresAt } },
  BOOST: {
    type: 'object',
    additionalProperties: false,
    required: ['multiplier'],
    properties: { multiplier: { type: 'number', exclusiveMinimum: 0, maximum: 100 }, expiresAt },
  },
  REFERRER: {
    type: 'object',
    additionalProperties: false,
    required: ['referrer'],
    properties: { referrer: address20 },
  },
  FORWARDER: {
    type: 'object',
    additionalProperties: false,
    required: ['recipient'],
    properties: { recipient: address20, sharePercent: { type: 'number', exclusiveMinimum: 0, maximum: 100 } },
  },
  APR: {
    type: 'object',
    additionalProperties: false,
    required: ['apr'],
    properties: { apr: { type: 'number', minimum: 0, maximum: 1_000_000 }, until: expiresAt },
  },
};

/**
 * Value validators compiled once by their own ajv, without coercion or defaults (the request ajv
 * coerces query strings): a value must already carry its JSON types, and is never rewritten.
 */
const valueAjv = new Ajv({ strict: true, allErrors: false });
const valueValidators = Object.fromEntries(
  STORE_TYPES.map((type) => [type, valueAjv.compile(VALUE_SCHEMAS[type])]),
) as Record<StoreType, ValidateFunction>;

/**
 * Checks one entry against its store's type: the address length (APR: a 32-byte campaign id; other
 * types: a 20-byte wallet or a 32-byte id) and the value's JSON shape.
 * @returns a message naming what is wrong, or null.
 */
export function entryProblem(type: StoreType, e: EntryInput): { field: 'address' | 'value'; message: string } | null {
  if (type === 'APR' && e.address.length !== 66)
    return { field: 'address', message: 'must be a campaign id (32-byte hex) in an APR store' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(e.value);
  } catch {
    return { field: 'value', message: 'must be a JSON-encoded string' };
  }
  const check = valueValidators[type];
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { field: 'value', message: `must encode a JSON object for a ${type} store` };
  if (!check(parsed)) {
    const first = check.errors?.[0];
    const where = first?.instancePath
      ? first.instancePath.slice(1).replace(/\//g, '.')
      : (first?.params['missingProperty'] ?? first?.params['additionalProperty'] ?? '');
    return {
      field: 'value',
      message: `does not fit a ${type} store: ${where ? `${where} ` : ''}${first?.message ?? 'has a wrong type'}`,
    };
  }
  return null;
}
