const DESCRIPTION = { type: 'string', minLength: 1, maxLength: 255 } as const;

/** POST /v4/developer/keys/ body: `description`, 1 to 255 characters. */
export const createKeyBody = {
  type: 'object',
  additionalProperties: false,
  required: ['description'],
  properties: { description: DESCRIPTION },
} as const;

/** PATCH /v4/developer/keys/{id} body: optional `description`. */
export const updateKeyBody = {
  type: 'object',
  additionalProperties: false,
  properties: { description: DESCRIPTION },
} as const;

/** Path `id` (uuid). */
export const keyIdParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid' } },
} as const;

/** Query `days`: default 30, 1 to 90. */
export const usageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { days: { type: 'integer', minimum: 1, maximum: 90, default: 30 } },
} as const;

/**
 * Active (unrevoked) keys one user may hold at once (docs/api-behaviour.md#limits-and-tiers: capped; the number is
 * ours).
 */
export const MAX_ACTIVE_KEYS = 20;
