import type { ApiDeps } from '../../deps.js';
import { NotFoundError } from '../../errors.js';
import { identityOf } from '../../identity/index.js';
import type { AuthState } from '../../identity/types.js';
import type { AuthContext } from '../../middleware/auth.js';
import { clientKeyOf } from '../../middleware/clientAddress.js';
import type { Handler } from '../../validate.js';
import {
  createKey,
  dailyUsage,
  KeyCreationLimitError,
  listKeys,
  ownsKey,
  revokeKey,
  updateKey,
  usageByKey,
} from './repo.js';
import type { createKeyBody, keyIdParams, updateKeyBody, usageQuery } from './schema.js';
import { serializeApiKey, serializeDailyUsage } from './serialize.js';

/** The session wallet owning the keys (every /developer/keys route is behind requireSession). */
const owner = (state: AuthState) => state.session!.address;

/** POST /v4/developer/keys/: a new key; the raw key is answered this once. */
export function createKeyHandler(deps: ApiDeps): Handler<{ body: typeof createKeyBody }> {
  const clientKey = clientKeyOf(deps.config.trustedProxies);
  const perDay = deps.config.clientLimits.keysPerAddressPerDay;
  return async (ctx) => {
    try {
      const origin = { from: clientKey(ctx), perDay };
      ctx.body = serializeApiKey(await createKey(deps.pg, owner(ctx.state), ctx.state.body.description, origin));
    } catch (error) {
      if (error instanceof KeyCreationLimitError) ctx.set('Retry-After', String(error.retryAfterSeconds));
      throw error;
    }
  };
}

/** GET /v4/developer/keys/: the session user's keys. */
export function listKeysHandler(deps: ApiDeps) {
  return async (ctx: AuthContext): Promise<void> => {
    ctx.body = (await listKeys(deps.pg, owner(ctx.state))).map((row) => serializeApiKey(row));
  };
}

/** GET /v4/developer/keys/usage: calls per key over the last `days`. */
export function keysUsageHandler(deps: ApiDeps): Handler<{ query: typeof usageQuery }> {
  return async (ctx) => {
    const perKey = await usageByKey(deps.pg, owner(ctx.state), ctx.state.query.days);
    ctx.body = { totalCalls: perKey.reduce((sum, k) => sum + k.totalCalls, 0), keys: perKey };
  };
}

/** GET /v4/developer/keys/{id}/usage: daily calls of one of the user's keys per endpoint (another user's key is a 404). */
export function keyUsageHandler(deps: ApiDeps): Handler<{ params: typeof keyIdParams; query: typeof usageQuery }> {
  return async (ctx) => {
    const { params, query } = ctx.state;
    if (!(await ownsKey(deps.pg, owner(ctx.state), params.id))) throw new NotFoundError(`No API key ${params.id}`);
    ctx.body = serializeDailyUsage(await dailyUsage(deps.pg, params.id, query.days));
  };
}

/** PATCH /v4/developer/keys/{id}: a new description. */
export function updateKeyHandler(deps: ApiDeps): Handler<{ params: typeof keyIdParams; body: typeof updateKeyBody }> {
  return async (ctx) => {
    const { params, body } = ctx.state;
    const row = await updateKey(deps.pg, owner(ctx.state), params.id, body.description);
    if (!row) throw new NotFoundError(`No API key ${params.id}`);
    ctx.body = serializeApiKey(row);
  };
}

/** DELETE /v4/developer/keys/{id}: revokes the key (the credential cache forgets it at once). */
export function revokeKeyHandler(deps: ApiDeps): Handler<{ params: typeof keyIdParams }> {
  const { lookup } = identityOf(deps);
  return async (ctx) => {
    const { params } = ctx.state;
    const row = await revokeKey(deps.pg, owner(ctx.state), params.id);
    if (!row) throw new NotFoundError(`No API key ${params.id}`);
    lookup.forget(row.id);
    ctx.body = serializeApiKey(row);
  };
}

/** GET /v4/api-keys/validate (behind requireApiKey): the key is valid. */
export function validateKeyHandler() {
  return (ctx: AuthContext): void => {
    ctx.body = { ok: true };
  };
}
