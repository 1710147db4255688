import { fields, type InputOf } from '../../validate.js';

const ADDRESS = {
  type: 'string',
  minLength: 1,
  pattern: '^0x[a-fA-F0-9]{40}$',
  'x-accepts': fields.address['x-accepts'],
} as const;

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

export type LoginBody = InputOf<typeof loginBody>;

/** GET /v4/auth/idp/start query: `mode`, `login` (a new session) or `link` (link the identity to the wallet session). */
export const idpStartQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['mode'],
  properties: { mode: { type: 'string', enum: ['login', 'link'] } },
} as const;

const text = { type: 'string', maxLength: 2048 } as const;
/**
 * GET /v4/auth/idp/callback query: the authorization response (`code` and `state`, or `error` with its
 * description and URI; RFC 6749 §4.1.2 and §4.1.2.1), plus what providers add (RFC 9207 `iss`,
 * `session_state`, `scope`). Every field is optional here; the handler asks for `code` and `state`.
 */
export const idpCallbackQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    code: text,
    state: text,
    error: text,
    error_description: text,
    error_uri: text,
    iss: text,
    session_state: text,
    scope: text,
  },
} as const;
