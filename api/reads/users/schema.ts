import { fields, type InputOf } from '../../validate.js';
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

export type UserRewardsQuery = InputOf<typeof userRewardsQuery>;

/** GET /v4/users/{address}/rewards/summary query: optionally some chains (default: every configured chain). */
export const userSummaryQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { chainId: chainIdListField },
} as const;

/** GET /v4/users/{address}/rewards/breakdowns query (docs/api-behaviour.md#user-rewards). */
export const userBreakdownsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    chainIds: chainIdListField,
    tags: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 64 } },
    reloadChainId: fields.chainId,
    test: { ...fields.boolean, default: false },
    claimableOnly: { ...fields.boolean, default: false },
  },
} as const;

/** Query of the on-chain reads of one wallet: optionally one chain. */
export const chainQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { chainId: fields.chainId },
} as const;
/** Query of /v4/users/{address}/operator/{operatorAddress}: optionally one chain and one token. */
export const operatorQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { chainId: fields.chainId, token: fields.address },
} as const;
/** POST /v4/users/{address}/terms body: the chain whose terms are accepted. */
export const termsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;
/** No query parameters are accepted. */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;
