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
