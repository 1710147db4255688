import { fields } from '../../validate.js';

const ADDRESS = { type: 'string', minLength: 1, pattern: '^0x[a-fA-F0-9]{40}$' } as const;

/** GET /v4/auth/nonce/{address}: a 0x-prefixed 20-byte hex address. */
export const nonceParams = {
  type: 'object',
  additionalProperties: false,
  required: ['address'],
  properties: { address: ADDRESS },
} as const;

/** POST /v4/auth/login body (its OpenAPI description: the describe() of api/routes/auth/router.ts); no other properties. */
export const loginBody = {
  type: 'object',
  additionalProperties: false,
  required: ['address', 'message', 'signature'],
  properties: {
    address: ADDRESS,
    message: { type: 'string', minLength: 1, maxLength: 4096 },
    signature: { type: 'string', minLength: 1, maxLength: 65536, pattern: '^0x[a-fA-F0-9]*$' },
    chainId: fields.chainId,
  },
} as const;

export type LoginBody = { address: string; message: string; signature: `0x${string}`; chainId?: number };
