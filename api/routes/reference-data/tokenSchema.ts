import { fields } from '../../validate.js';

const TOKEN_TYPES = ['TOKEN', 'PRETGE', 'POINT'] as const;
const icon = { type: 'string', maxLength: 500, 'x-accepts': 'an icon URL (up to 500 characters), or empty' } as const;
const label = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** The fields both POST and PATCH /v4/tokens set (the hosted service's names). */
const curatedFields = {
  icon,
  verified: fields.boolean,
  displaySymbol: label,
  name: label,
  isTest: fields.boolean,
  type: { type: 'string', enum: [...TOKEN_TYPES] },
} as const;

/**
 * POST /v4/tokens body (the hosted service's, without `price`/`priceSource`/`updatedAt`: prices come from the price
 * job): the chain and address, its icon and verification; `symbol`, `decimals` and `name` are read from the chain when
 * left out.
 */
export const createTokenBody = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'address', 'icon', 'verified'],
  properties: {
    chainId: fields.chainId,
    address: fields.address,
    ...curatedFields,
    symbol: label,
    decimals: { type: 'integer', minimum: 0, maximum: 255 },
    isNative: fields.boolean,
  },
} as const;

/** PATCH /v4/tokens/{id} body (the hosted service's): at least one field. */
export const patchTokenBody = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...curatedFields,
    underlyingTokenId: { type: 'string', pattern: '^[0-9]{1,20}$', 'x-accepts': 'a stored token id' },
  },
} as const;

/** PATCH /v4/tokens/{id}: a stored token id. */
export const storedTokenParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[0-9]{1,20}$', 'x-accepts': 'a stored token id (decimal)' } },
} as const;

/** API field → tokens column, for the curated fields (tokens.curated_fields holds column names). */
export const TOKEN_COLUMN_OF = {
  icon: 'icon',
  verified: 'verified',
  displaySymbol: 'display_symbol',
  name: 'name',
  isTest: 'is_test',
  type: 'type',
  symbol: 'symbol',
  decimals: 'decimals',
  isNative: 'is_native',
  underlyingTokenId: 'underlying_token_id',
} as const;
