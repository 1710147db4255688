import { fields, type InputOf } from '../../validate.js';

export const OPPORTUNITY_STATUSES = ['LIVE', 'PAST', 'SOON'] as const;
export const TOKEN_TYPES = ['TOKEN', 'PRETGE', 'POINT'] as const;
const slug = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** GET /v4/protocols query (described in the route's OpenAPI schema, api/routes/protocols/router.ts). */
export const listProtocolsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: fields.page,
    items: fields.items,
    id: slug,
    test: { ...fields.boolean, default: false },
    ids: { type: 'array', items: slug, minItems: 1, maxItems: 100 },
    name: slug,
    tags: { type: 'array', items: slug, minItems: 1, maxItems: 20 },
    opportunityTag: slug,
    opportunityChain: fields.chainId,
    status: fields.commaList(OPPORTUNITY_STATUSES),
    tokenTypes: { type: 'array', items: { type: 'string', enum: TOKEN_TYPES }, minItems: 1 },
    excludeSubCampaigns: { ...fields.boolean, default: false },
  },
} as const;

export type ListProtocolsQuery = InputOf<typeof listProtocolsQuery>;

/** A protocol id: a lower-case slug. */
export const PROTOCOL_SLUG = {
  type: 'string',
  pattern: '^[a-z0-9][a-z0-9-]{0,63}$',
  'x-accepts': 'a lower-case slug',
} as const;

/** GET and PATCH /v4/protocols/{id}: a protocol's id. */
export const protocolIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: PROTOCOL_SLUG },
} as const;
