import { fields, type InputOf } from '../../validate.js';

const dateField = { type: 'string', minLength: 1, maxLength: 40 } as const;
/** Query of both routes: the chain, the two dates (ISO 8601 or Unix seconds, see toUnixSeconds) and paging (at most 10000 a page). */
export const historicalQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'startDate', 'endDate'],
  properties: {
    chainId: fields.chainId,
    startDate: dateField,
    endDate: dateField,
    page: { type: 'integer', minimum: 0, maximum: 100_000, default: 0 },
    items: { type: 'integer', minimum: 1, maximum: 10_000, default: 1000 },
  },
} as const;
/** GET /v4/historical/campaign/{campaignId}: an on-chain campaign id (bytes32) or a campaign's database id. */
export const campaignParams = {
  type: 'object',
  required: ['campaignId'],
  properties: {
    campaignId: {
      type: 'string',
      pattern: '^(0x[0-9a-fA-F]{64}|[0-9]{1,20})$',
      'x-accepts': 'an on-chain campaign id (0x and 64 hex digits) or a campaign id (decimal, up to 20 digits)',
    },
  },
} as const;
/** GET /v4/historical/recipient/{recipient}: an address. */
export const recipientParams = {
  type: 'object',
  required: ['recipient'],
  properties: { recipient: fields.address },
} as const;

export type HistoricalQuery = InputOf<typeof historicalQuery>;
