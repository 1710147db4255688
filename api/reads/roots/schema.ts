import { fields, type InputOf } from '../../validate.js';

/** GET /v4/roots query: every parameter but paging is required (docs/api-behaviour.md#roots). */
export const listRootsQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'fromTimestamp', 'toTimestamp'],
  properties: {
    chainId: fields.chainId,
    fromTimestamp: fields.unixSeconds,
    toTimestamp: fields.unixSeconds,
    page: fields.page,
    items: fields.items,
  },
} as const;

export type ListRootsQuery = InputOf<typeof listRootsQuery>;

/** GET /v4/roots/live takes no parameters. */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;
