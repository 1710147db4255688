import { fields } from '../../validate.js';

const base = { type: 'object', additionalProperties: false } as const;

export const blockQuery = {
  ...base,
  required: ['chainId', 'timestamp'],
  properties: { chainId: fields.chainId, timestamp: fields.unixSeconds },
} as const;
export const timestampQuery = {
  ...base,
  required: ['chainId', 'blockNumber'],
  properties: { chainId: fields.chainId, blockNumber: { type: 'integer', minimum: 0, maximum: 2 ** 53 - 1 } },
} as const;
export const boundsQuery = blockQuery;
