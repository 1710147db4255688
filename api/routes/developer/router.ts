import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import { requireApiKey, requireSession } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import {
  createKeyHandler,
  keysUsageHandler,
  keyUsageHandler,
  listKeysHandler,
  revokeKeyHandler,
  updateKeyHandler,
  validateKeyHandler,
} from './handlers.js';
import { createKeyBody, keyIdParams, updateKeyBody, usageQuery } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, int, nullable, num, obj, str, stringMap } from '../../openapi/schemaHelpers.js';

const keyFields = {
  id: { type: 'string', format: 'uuid' },
  prefix: str,
  description: str,
  revokedAt: nullable(str),
  createdAt: str,
  tier: int,
};
const keySchema = obj(keyFields);
const createdKeySchema = obj({ ...keyFields, rawKey: str });
const usageSchema = obj({
  totalCalls: num,
  keys: arr(obj({ id: str, prefix: str, description: str, totalCalls: num })),
});
const dailyUsageSchema = obj({
  daily: arr(
    obj({
      date: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
      total: num,
      endpoints: stringMap({ type: 'number' }),
    }),
  ),
});

/**
 * Developer API keys (docs/api-behaviour.md#credentials-and-guards), all behind a wallet session (an API key alone is refused), plus
 * GET /api-keys/validate behind a valid key. Another user's key id is a 404.
 * Tables: api_keys, api_key_usage, users.
 */
export function developerRouter(deps: ApiDeps): Router<AuthState> {
  const router = new Router<AuthState>();
  const keys = new Router<AuthState>({ prefix: '/developer/keys' });

  keys.use(requireSession);
  keys.post(
    '/',
    describe({
      summary: 'Create an API key (the raw key is returned once)',
      description:
        "Creates an API key for the session's user. The raw key is in `rawKey` of this response only; store it, it cannot be read again. A user has a bounded number of active keys (409 beyond). One client address (an IPv6 client by its /64) creates at most API_KEYS_PER_ADDRESS_PER_DAY keys in 24 hours whatever the wallets (429 with Retry-After beyond).",
      response: createdKeySchema,
      errors: [409, 429],
    }),
    validate({ body: createKeyBody }),
    createKeyHandler(deps),
  );
  keys.get(
    '/',
    describe({
      summary: 'API keys of the session user',
      description: "The session user's API keys, active and revoked, without raw keys.",
      response: arr(keySchema),
    }),
    listKeysHandler(deps),
  );
  keys.get(
    '/usage',
    describe({
      summary: 'Calls per key over the last days',
      description: "Calls of each of the user's keys over the last `days` days (1 to 90, default 30), with the total.",
      response: usageSchema,
    }),
    validate({ query: usageQuery }),
    keysUsageHandler(deps),
  );
  keys.get(
    '/:id/usage',
    describe({
      summary: 'Daily calls of one key per endpoint',
      description: "Daily calls of one of the user's keys over the last `days` days, per endpoint.",
      response: dailyUsageSchema,
    }),
    validate({ params: keyIdParams, query: usageQuery }),
    keyUsageHandler(deps),
  );
  keys.patch(
    '/:id',
    describe({
      summary: 'Update the description of a key',
      description: "Changes the description of one of the user's keys.",
      response: keySchema,
    }),
    validate({ params: keyIdParams, body: updateKeyBody }),
    updateKeyHandler(deps),
  );
  keys.delete(
    '/:id',
    describe({
      summary: 'Revoke a key',
      description: "Revokes one of the user's keys: `revokedAt` is set and the key is refused from then on.",
      response: keySchema,
    }),
    validate({ params: keyIdParams }),
    revokeKeyHandler(deps),
  );

  router.use(keys.routes(), keys.allowedMethods({ throw: true }));
  router.get(
    '/api-keys/validate',
    describe({
      summary: 'Check an API key',
      description: '`{ ok: true }` when the `x-api-key` header holds a valid, unrevoked key; 401 otherwise.',
      response: obj({ ok: bool }),
    }),
    requireApiKey,
    validateKeyHandler(),
  );
  return router;
}
