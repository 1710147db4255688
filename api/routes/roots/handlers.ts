import type { Context } from 'koa';
import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import { listRootsInWindow } from './repo.js';
import type { ListRootsQuery } from './schema.js';
import { serializeRoot } from './serialize.js';

/**
 * GET /v4/roots: the roots recorded within [fromTimestamp, toTimestamp] plus the one in force at
 * fromTimestamp (see listRootsInWindow), newest first. Table roots.
 */
export function listRootsHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    const q = ctx.state.query as ListRootsQuery;
    if (q.fromTimestamp > q.toTimestamp)
      throw new ValidationError([{ field: 'toTimestamp', message: 'must be greater than or equal to fromTimestamp' }]);
    ctx.body = (await listRootsInWindow(deps.pg, q)).map(serializeRoot);
  };
}
