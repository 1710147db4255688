import { fields, type InputOf } from '../../validate.js';

const text = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** GET /v4/tokens query (described in the route's OpenAPI schema, api/routes/tokens/router.ts). `id` accepts one or many ids. */
export const listTokensQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: fields.page,
    items: fields.items,
    id: { type: 'array', items: { type: 'string', pattern: '^[0-9]{1,20}$' }, minItems: 1, maxItems: 100 },
    symbol: text,
    displaySymbol: text,
    chainId: fields.chainId,
    isNative: fields.boolean,
    address: fields.address,
    name: text,
    search: text,
    verified: fields.boolean,
    test: { ...fields.boolean, default: false },
    missingIcons: fields.boolean,
    missingPrice: fields.boolean,
  },
} as const;

export type ListTokensQuery = InputOf<typeof listTokensQuery>;

/** GET /v4/tokens/{id}: a stored numeric id; a temporary `tmp-…` id passes the pattern and is refused by the handler. */
export const tokenIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: {
      type: 'string',
      pattern: '^([0-9]{1,20}|tmp-[0-9]+-0x[0-9a-fA-F]{40})$',
      'x-accepts': 'a token id (decimal, up to 20 digits)',
    },
  },
} as const;

/** A 20-byte hex address (the shape `search` must have to trigger an on-chain read). */
export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

const TOKEN_TYPES = ['TOKEN', 'PRETGE', 'POINT'] as const;
const tokenTypes = {
  type: 'array',
  items: { type: 'string', enum: [...TOKEN_TYPES] },
  minItems: 1,
  maxItems: 3,
} as const;

/** GET /v4/tokens/reward query (the hosted service's `chainId?`, `search?`, plus `tokenTypes`, `verified`). */
export const rewardTokensQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { chainId: fields.chainId, search: text, tokenTypes, verified: fields.boolean },
} as const;

/** GET /v4/tokens/reward/{chainId}. */
export const rewardChainParams = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;

/** GET /v4/tokens/reward/{chainId} query (the hosted service's `tokenTypes`, plus `search`, `verified`). */
export const rewardChainQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { search: text, tokenTypes, verified: fields.boolean },
} as const;

/** Tokens one balances request may name (each is a balanceOf call, and unknown ones three metadata calls more). */
export const MAX_BALANCE_TOKENS = 100;

/**
 * GET /v4/tokens/balances query, as the hosted service's: `chainId`, `userAddress`, one `tokenAddress`
 * or, without it, the chain's reward tokens (`verified` filters them), plus `additionalTokenAddresses`
 * (`additionalTokenAddresses[]` is accepted as the same key).
 */
export const balancesQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'userAddress'],
  properties: {
    chainId: fields.chainId,
    userAddress: fields.address,
    tokenAddress: fields.address,
    additionalTokenAddresses: { type: 'array', items: fields.address, maxItems: MAX_BALANCE_TOKENS },
    verified: fields.boolean,
  },
} as const;

export type BalancesQuery = InputOf<typeof balancesQuery>;

/** GET /v4/tokens/{id}/allowance/{owner}/{spender}: a stored id or a temporary `tmp-{chainId}-{address}` one. */
export const allowanceParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'owner', 'spender'],
  properties: {
    id: tokenIdParams.properties.id,
    owner: fields.address,
    spender: fields.address,
  },
} as const;
