import { fields } from '../../validate.js';
import { TOKEN_TYPES } from '../campaigns/schema.js';
import { addressField, chainIdListField } from './params.js';

/** Path of /v4/users/{address}…. */
export const userParams = {
  type: 'object',
  additionalProperties: true,
  required: ['address'],
  properties: { address: addressField },
} as const;

/** Path of /v4/users/{address}/recipient/{token}. */
export const recipientParams = {
  ...userParams,
  required: ['address', 'token'],
  properties: { address: addressField, token: addressField },
} as const;

/** Path of /v4/users/{address}/operator/{operatorAddress}. */
export const operatorParams = {
  ...userParams,
  required: ['address', 'operatorAddress'],
  properties: { address: addressField, operatorAddress: addressField },
} as const;

/** GET /v4/users/{address}/rewards query: `chainId` and `breakdownPage` are required. */
export const userRewardsQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'breakdownPage'],
  properties: {
    chainId: chainIdListField,
    breakdownPage: { type: 'integer', minimum: 0, maximum: 100_000 },
    reloadChainId: fields.chainId,
    test: { ...fields.boolean, default: false },
    claimableOnly: { ...fields.boolean, default: false },
    type: { type: 'string', enum: [...TOKEN_TYPES] },
  },
} as const;

export type UserParams = { address: string };
export type RecipientParams = { address: string; token: string };
export type OperatorParams = { address: string; operatorAddress: string };
export type UserRewardsQuery = {
  chainId: string[];
  breakdownPage: number;
  reloadChainId?: number;
  test: boolean;
  claimableOnly: boolean;
  type?: (typeof TOKEN_TYPES)[number];
};
