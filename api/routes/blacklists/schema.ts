import { fields } from '../../validate.js';

/** GET /v4/blacklists: paging, optionally one chain. */
export const listBlacklistQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { chainId: fields.chainId, page: fields.page, items: fields.items },
} as const;

/** GET /v4/blacklists/check/{address}, DELETE /v4/blacklists/user/{address}. */
export const addressParams = {
  type: 'object',
  additionalProperties: false,
  required: ['address'],
  properties: { address: fields.address },
} as const;

/** GET /v4/blacklists/check/{address} query: optionally one chain. */
export const checkQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { chainId: fields.chainId },
} as const;

/** GET /v4/blacklists/mapping takes no parameters. */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

/** POST /v4/blacklists body (the hosted AddBlacklistDto; `poolAddress` may be left out for every pool of the chain). */
export const addBlacklistBody = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'userAddress'],
  properties: {
    chainId: fields.chainId,
    userAddress: fields.address,
    poolAddress: fields.address,
    reason: { type: 'string', minLength: 1, maxLength: 500 },
  },
} as const;
