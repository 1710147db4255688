import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import { loadLiveRootState } from '../../reads/roots.js';
import { listRootsInWindow, loadEndsOfDisputePeriod } from '../../reads/roots/repo.js';
import type { Handler } from '../../validate.js';
import type { listRootsQuery, noQuery } from '../../reads/roots/schema.js';
import { serializeLiveRoot, serializeRoot, type LiveRootResponse } from '../../reads/roots/serialize.js';

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

/**
 * GET /v4/roots/live: per configured chain, the root the Distributor's `getMerkleRoot()` returns by
 * the one live-root rule the reward reads use (loadLiveRootState), with `tree`, `lastTree`, the
 * stored endOfDisputePeriod and the pending root. Tables roots, reward_trees, distributor_events,
 * chains, cursors, blocks.
 */
export function liveRootsHandler(deps: ApiDeps): Handler<{ query: typeof noQuery }> {
  return async (ctx) => {
    const chainIds = deps.config.chains.map((c) => c.id);
    const [states, ends] = await Promise.all([
      Promise.all(chainIds.map((id) => loadLiveRootState(deps.pg, id))),
      loadEndsOfDisputePeriod(deps.pg, chainIds),
    ]);
    const body: Record<string, LiveRootResponse> = {};
    for (const [i, id] of chainIds.entries()) body[String(id)] = serializeLiveRoot(states[i]!, ends.get(id) ?? 0);
    ctx.body = body;
  };
}
