import { fields } from '../../validate.js';
import { CURSOR_JOBS } from './indexingState.js';

export const lastBlockQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId, protocol: { enum: [...CURSOR_JOBS] } },
} as const;

export const etlHealthQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { maxAgeMinutes: { type: 'integer', minimum: 1, maximum: 10_080 } },
} as const;
