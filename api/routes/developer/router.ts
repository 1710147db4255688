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
      response: createdKeySchema,
      errors: [409],
    }),
    validate({ body: createKeyBody }),
    createKeyHandler(deps),
  );
  keys.get('/', describe({ summary: 'API keys of the session user', response: arr(keySchema) }), listKeysHandler(deps));
  keys.get(
    '/usage',
    describe({ summary: 'Calls per key over the last days', response: usageSchema }),
    validate({ query: usageQuery }),
    keysUsageHandler(deps),
  );
  keys.get(
    '/:id/usage',
    describe({ summary: 'Daily calls of one key per endpoint', response: dailyUsageSchema }),
    validate({ params: keyIdParams, query: usageQuery }),
    keyUsageHandler(deps),
  );
  keys.patch(
    '/:id',
    describe({ summary: 'Update the description of a key', response: keySchema }),
    validate({ params: keyIdParams, body: updateKeyBody }),
    updateKeyHandler(deps),
  );
  keys.delete(
    '/:id',
    describe({ summary: 'Revoke a key', response: keySchema }),
    validate({ params: keyIdParams }),
    revokeKeyHandler(deps),
  );

  router.use(keys.routes(), keys.allowedMethods({ throw: true }));
  router.get(
    '/api-keys/validate',
    describe({ summary: 'Check an API key', response: obj({ ok: bool }) }),
    requireApiKey,
    validateKeyHandler(),
  );
  return router;
}
