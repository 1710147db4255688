import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import { listRootsInWindow } from './repo.js';
import type { Handler } from '../../validate.js';
import type { listRootsQuery } from './schema.js';
import { serializeRoot } from './serialize.js';

/**
 * GET /v4/roots: the roots recorded within [fromTimestamp, toTimestamp] plus the one in force at
 * fromTimestamp (see listRootsInWindow), newest first. Table roots.
 */
export function listRootsHandler(deps: ApiDeps): Handler<{ query: typeof listRootsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    if (q.fromTimestamp > q.toTimestamp)
      throw new ValidationError([{ field: 'toTimestamp', message: 'must be greater than or equal to fromTimestamp' }]);
    ctx.body = (await listRootsInWindow(deps.pg, q)).map(serializeRoot);
  };
}
