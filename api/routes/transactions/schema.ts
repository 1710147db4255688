import { fields } from '../../validate.js';

const base = { type: 'object', additionalProperties: false } as const;

/** A creation transaction: its hash on a chain. */
export const transactionQuery = {
  ...base,
  required: ['hash', 'chainId'],
  properties: { hash: fields.bytes32, chainId: fields.chainId },
} as const;

/** A campaign by its on-chain id on its distribution chain. */
export const creationHashQuery = {
  ...base,
  required: ['chainId', 'campaignId'],
  properties: {
    chainId: fields.chainId,
    campaignId: { ...fields.bytes32, 'x-accepts': 'an on-chain campaign id (0x and 64 hex digits)' },
  },
} as const;
