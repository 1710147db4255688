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

type Validated = { params: { id: string }; query: { days: number }; body: { description?: string } };

/**
 * Developer API keys (spec: Developer API keys), all behind a wallet session (api-facts §4), plus
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
  keys.post('/', validate({ body: createKeyBody }), async (ctx) => {
    ctx.body = serializeApiKey(await createKey(deps.pg, owner(ctx.state), v(ctx.state).body.description!));
  });
  keys.get('/', async (ctx) => {
    ctx.body = (await listKeys(deps.pg, owner(ctx.state))).map((row) => serializeApiKey(row));
  });
  keys.get('/usage', validate({ query: usageQuery }), async (ctx) => {
    const perKey = await usageByKey(deps.pg, owner(ctx.state), v(ctx.state).query.days);
    ctx.body = { totalCalls: perKey.reduce((sum, k) => sum + k.totalCalls, 0), keys: perKey };
  });
  keys.get('/:id/usage', validate({ params: keyIdParams, query: usageQuery }), async (ctx) => {
    const { params, query } = v(ctx.state);
    if (!(await ownsKey(deps.pg, owner(ctx.state), params.id))) throw new NotFoundError(`No API key ${params.id}`);
    ctx.body = serializeDailyUsage(await dailyUsage(deps.pg, params.id, query.days));
  });
  keys.patch('/:id', validate({ params: keyIdParams, body: updateKeyBody }), async (ctx) => {
    const { params, body } = v(ctx.state);
    const row = await updateKey(deps.pg, owner(ctx.state), params.id, body.description);
    if (!row) throw new NotFoundError(`No API key ${params.id}`);
    ctx.body = serializeApiKey(row);
  });
  keys.delete('/:id', validate({ params: keyIdParams }), async (ctx) => {
    const { params } = v(ctx.state);
    const row = await revokeKey(deps.pg, owner(ctx.state), params.id);
    if (!row) throw new NotFoundError(`No API key ${params.id}`);
    lookup.forget(row.id);
    ctx.body = serializeApiKey(row);
  });

  router.use(keys.routes(), keys.allowedMethods({ throw: true }));
  router.get('/api-keys/validate', requireApiKey, (ctx) => {
    ctx.body = { ok: true };
  });
  return router;
}
