import { fields } from '../../validate.js';

/** Our protocol ids of the concentrated-liquidity pools we index (domain/protocols.ts), by campaign type. */
export const CLAMM_PROTOCOLS = { 'uniswap-v3': 'CLAMM', 'uniswap-v4': 'UNISWAP_V4' } as const;
export type ClammProtocol = keyof typeof CLAMM_PROTOCOLS;

/** A pool: a V3 pool's address or a V4 pool's id (the PoolKey's hash). */
const poolId = {
  type: 'string',
  pattern: '^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$',
  'x-accepts': "a V3 pool's address (0x and 40 hex digits) or a V4 pool id (0x and 64 hex digits)",
} as const;

/** A chain's pools (the list routes have no `poolId` in their paths; the by-id routes require it). */
export const clammChainParams = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId'],
  properties: { chainId: fields.chainId },
} as const;

/** One pool of a chain. */
export const clammChainPoolParams = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'poolId'],
  properties: { chainId: fields.chainId, poolId },
} as const;

const protocolParam = { enum: Object.keys(CLAMM_PROTOCOLS) };

export const clammProtocolParams = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'protocol'],
  properties: { chainId: fields.chainId, protocol: protocolParam },
} as const;

export const clammProtocolPoolParams = {
  type: 'object',
  additionalProperties: false,
  required: ['chainId', 'protocol', 'poolId'],
  properties: { chainId: fields.chainId, protocol: protocolParam, poolId },
} as const;

/** Paging over pools (ordered by pool id); `showPrivate` as on campaign lists. */
export const clammPoolsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: fields.page,
    items: { type: 'integer', minimum: 1, maximum: 1000, default: 1000 },
    showPrivate: fields.boolean,
  },
} as const;
