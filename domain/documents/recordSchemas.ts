import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The one definition of each public record the API serves everywhere (issue 47): a plain JSON Schema
 * declared `as const`. The OpenAPI component (api/openapi/records.ts names it), the response check,
 * the TypeScript type (RecordOf), the serializers' and the documents' types all derive from it, and
 * the web reads the generated client's type of the same component (clients/typescript).
 * Properties are required as the contract says (../shared/spec/api-spec.md); extra properties are allowed.
 */

const str = { type: 'string' } as const;
const num = { type: 'number' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;

/** Token record: the `Token` component of /v4/openapi.json. */
export const TOKEN_RECORD_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'name',
    'chainId',
    'address',
    'decimals',
    'symbol',
    'icon',
    'verified',
    'isNative',
    'isTest',
    'type',
  ],
  properties: {
    id: str,
    name: { type: ['string', 'null'] },
    chainId: int,
    address: str,
    decimals: num,
    symbol: str,
    icon: str,
    verified: bool,
    isNative: bool,
    isTest: bool,
    type: { enum: ['TOKEN', 'PRETGE', 'POINT'] },
    price: { type: ['number', 'null'] },
    updatedAt: { type: ['number', 'null'] },
    priceSource: { type: ['string', 'null'] },
    /** Custom display symbol, when the operator set one (the token API falls back to the symbol). */
    displaySymbol: str,
    /** Present only when the token wraps another. */
    underlyingTokenId: str,
    /** We raise no price alerts: absent. */
    priceAlertDismissedAt: num,
    priceAlertCount: num,
  },
} as const satisfies JSONSchema;

/** Chain record: the `Chain` component of /v4/openapi.json. */
export const CHAIN_RECORD_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'name',
    'icon',
    'liveCampaigns',
    'endOfDisputePeriod',
    'explorers',
    'lastClaimsOnchainFetchTimestamp',
  ],
  properties: {
    id: int,
    name: str,
    icon: str,
    liveCampaigns: num,
    endOfDisputePeriod: num,
    explorers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url', 'chainId'],
        properties: { type: str, url: str, chainId: num },
      },
    },
    lastClaimsOnchainFetchTimestamp: { type: ['string', 'null'] },
  },
} as const satisfies JSONSchema;

/** `T` without the index signature FromSchema adds for the extra properties a schema allows. */
type KnownKeys<T> = T extends readonly unknown[]
  ? { [I in keyof T]: KnownKeys<T[I]> }
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: KnownKeys<T[K]> }
    : T;

/** The TypeScript type of a record schema: its declared properties, optional where not required. */
export type RecordOf<S extends JSONSchema> = KnownKeys<FromSchema<S>>;
