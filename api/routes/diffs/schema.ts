import { fields, type InputOf } from '../../validate.js';

const paging = {
  page: { type: 'integer', minimum: 0, maximum: 100_000, default: 0 },
  items: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
} as const;
/** GET /v4/diffs/leaves query: a token of a chain, an optional recipient, sort, order and paging (at most 1000 a page). */
export const leavesQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'tokenAddress'],
  properties: {
    chainId: fields.chainId,
    tokenAddress: fields.address,
    recipient: fields.address,
    sort: { type: 'string', enum: ['amount', 'claimed', 'pending', 'recipient'], default: 'amount' },
    order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
    ...paging,
  },
} as const;
/** GET /v4/diffs/leaf-breakdowns query: as the leaves', plus an optional on-chain `campaignId`. */
export const breakdownsQuery = {
  ...leavesQuery,
  properties: { ...leavesQuery.properties, campaignId: { type: 'string', pattern: '^0x[0-9a-fA-F]{64}$' } },
} as const;
/** GET /v4/diffs/leaf-tokens query: the chain. */
export const tokensQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;

export type LeavesQuery = InputOf<typeof leavesQuery>;
export type BreakdownsQuery = InputOf<typeof breakdownsQuery>;
