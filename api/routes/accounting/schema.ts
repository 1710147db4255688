import { fields, type InputOf } from '../../validate.js';

/** `/per-month/{year}/{month}`: a calendar month (UTC). */
const monthProperties = {
  year: { type: 'integer', minimum: 2000, maximum: 9999 },
  month: { type: 'integer', minimum: 1, maximum: 12 },
} as const;

export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;
export const noParams = { type: 'object', properties: {} } as const;
export const monthParams = { type: 'object', required: ['year', 'month'], properties: monthProperties } as const;
export const chainParams = { type: 'object', required: ['chainId'], properties: { chainId: fields.chainId } } as const;
export const chainMonthParams = {
  type: 'object',
  required: ['chainId', 'year', 'month'],
  properties: { chainId: fields.chainId, ...monthProperties },
} as const;
export const tokenParams = {
  type: 'object',
  required: ['chainId', 'tokenAddress'],
  properties: { chainId: fields.chainId, tokenAddress: fields.address },
} as const;
export const tokenMonthParams = {
  type: 'object',
  required: ['chainId', 'tokenAddress', 'year', 'month'],
  properties: { chainId: fields.chainId, tokenAddress: fields.address, ...monthProperties },
} as const;

/** Every path parameter a revenue route may have. */
export type RevenueParams = Partial<InputOf<typeof tokenMonthParams>>;
