import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { identityOf } from '../../identity/index.js';
import type { AuthState } from '../../identity/types.js';
import { requireApiKey, requireSession } from '../../middleware/auth.js';
import { validate } from '../../validate.js';
import { createKey, dailyUsage, listKeys, ownsKey, revokeKey, updateKey, usageByKey } from './repo.js';
import { createKeyBody, keyIdParams, updateKeyBody, usageQuery } from './schema.js';
import { serializeApiKey, serializeDailyUsage } from './serialize.js';
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

type Validated = { params: { id: string }; query: { days: number }; body: { description?: string } };

/**
 * Developer API keys (docs/api-behaviour.md#credentials-and-guards), all behind a wallet session (an API key alone is refused), plus
 * GET /api-keys/validate behind a valid key. Another user's key id is a 404.
 * Tables: api_keys, api_key_usage, users.
 */
export function developerRouter(deps: ApiDeps): Router<AuthState> {
  const { lookup } = identityOf(deps);
  const router = new Router<AuthState>();
  const keys = new Router<AuthState>({ prefix: '/developer/keys' });
  const owner = (state: AuthState) => state.session!.address;
  const v = (state: AuthState) => state as unknown as Validated;

  keys.use(requireSession);
  keys.post(
    '/',
    describe({
      summary: 'Create an API key (the raw key is returned once)',
      response: createdKeySchema,
      errors: [409],
    }),
    validate({ body: createKeyBody }),
    async (ctx) => {
      ctx.body = serializeApiKey(await createKey(deps.pg, owner(ctx.state), v(ctx.state).body.description!));
    },
  );
  keys.get('/', describe({ summary: 'API keys of the session user', response: arr(keySchema) }), async (ctx) => {
    ctx.body = (await listKeys(deps.pg, owner(ctx.state))).map((row) => serializeApiKey(row));
  });
  keys.get(
    '/usage',
    describe({ summary: 'Calls per key over the last days', response: usageSchema }),
    validate({ query: usageQuery }),
    async (ctx) => {
      const perKey = await usageByKey(deps.pg, owner(ctx.state), v(ctx.state).query.days);
      ctx.body = { totalCalls: perKey.reduce((sum, k) => sum + k.totalCalls, 0), keys: perKey };
    },
  );
  keys.get(
    '/:id/usage',
    describe({ summary: 'Daily calls of one key per endpoint', response: dailyUsageSchema }),
    validate({ params: keyIdParams, query: usageQuery }),
    async (ctx) => {
      const { params, query } = v(ctx.state);
      if (!(await ownsKey(deps.pg, owner(ctx.state), params.id))) throw new NotFoundError(`No API key ${params.id}`);
      ctx.body = serializeDailyUsage(await dailyUsage(deps.pg, params.id, query.days));
    },
  );
  keys.patch(
    '/:id',
    describe({ summary: 'Update the description of a key', response: keySchema }),
    validate({ params: keyIdParams, body: updateKeyBody }),
    async (ctx) => {
      const { params, body } = v(ctx.state);
      const row = await updateKey(deps.pg, owner(ctx.state), params.id, body.description);
      if (!row) throw new NotFoundError(`No API key ${params.id}`);
      ctx.body = serializeApiKey(row);
    },
  );
  keys.delete(
    '/:id',
    describe({ summary: 'Revoke a key', response: keySchema }),
    validate({ params: keyIdParams }),
    async (ctx) => {
      const { params } = v(ctx.state);
      const row = await revokeKey(deps.pg, owner(ctx.state), params.id);
      if (!row) throw new NotFoundError(`No API key ${params.id}`);
      lookup.forget(row.id);
      ctx.body = serializeApiKey(row);
    },
  );

  router.use(keys.routes(), keys.allowedMethods({ throw: true }));
  router.get(
    '/api-keys/validate',
    describe({ summary: 'Check an API key', response: obj({ ok: bool }) }),
    requireApiKey,
    (ctx) => {
      ctx.body = { ok: true };
    },
  );
  return router;
}
