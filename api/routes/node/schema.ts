import { fields } from '../../validate.js';

/** GET /v4/node query: an address (contract, pool, vault) or an opportunity id, optionally on one chain. */
export const nodeQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['addressOrId'],
  properties: {
    chainId: fields.chainId,
    addressOrId: { type: 'string', pattern: '^(0x[0-9a-fA-F]{40}|0x[0-9a-fA-F]{64}|[0-9]{1,20})$' },
  },
} as const;
