import { fields, type InputOf } from '../../validate.js';

/** GET /v4/disputes: optionally one chain, and how many of each chain's latest roots to answer for. */
export const disputesByRootQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chainId: fields.chainId,
    roots: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
  },
} as const;
export type DisputesByRootQuery = InputOf<typeof disputesByRootQuery>;

/** GET /v4/disputes/{chainId}. */
export const chainParams = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;

/** GET /v4/disputes/{chainId} query: paging and an optional status. */
export const chainDisputesQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['open', 'valid', 'invalid'] },
    page: fields.page,
    items: fields.items,
  },
} as const;

/** GET /v4/roots/dispute takes no parameters. */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

/** GET /v4/roots/reports/{chainId} query: paging. */
export const reportsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { page: fields.page, items: fields.items },
} as const;
export type ReportsQuery = InputOf<typeof reportsQuery>;
