const creatorId = {
  type: 'string',
  pattern: '^[a-z0-9][a-z0-9-]{0,63}$',
  'x-accepts': 'a creator id (lower-case letters, digits and -, up to 64)',
} as const;
/** Up to 1e12 with at most 6 decimal places: a JSON number, or a decimal string (exact past a double's 15–17 digits). */
const amount = {
  type: ['number', 'string'],
  exclusiveMinimum: 0,
  maximum: 1e12,
  pattern: '^[0-9]{1,13}(\\.[0-9]{1,6})?$',
  'x-accepts': 'a positive amount up to 1e12 with at most 6 decimal places',
} as const;
/** POST /v4/credits and /v4/credits/subtract body. */
export const moveBody = {
  type: 'object',
  additionalProperties: false,
  required: ['creatorId', 'amount', 'label'],
  properties: {
    creatorId,
    amount,
    label: { type: 'string', minLength: 1, maxLength: 256 },
    idempotencyKey: { type: 'string', minLength: 1, maxLength: 128 },
  },
} as const;
/** Path `creatorId`. */
export const creatorParams = { type: 'object', required: ['creatorId'], properties: { creatorId } } as const;
/** GET /v4/credits/{creatorId}/operations query: `page` and `items` (at most 100). */
export const pageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 0, maximum: 100_000, default: 0 },
    items: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
} as const;
/** No query parameters are accepted. */
export const none = { type: 'object', additionalProperties: false, properties: {} } as const;
/** PUT /v4/credits/{creatorId}/allowance body: `maxNegativeBalance`, 0 to 1e12 with at most 6 decimal places. */
export const allowanceBody = {
  type: 'object',
  additionalProperties: false,
  required: ['maxNegativeBalance'],
  properties: {
    maxNegativeBalance: {
      type: ['number', 'string'],
      minimum: 0,
      maximum: 1e12,
      pattern: '^[0-9]{1,13}(\\.[0-9]{1,6})?$',
    },
  },
} as const;
