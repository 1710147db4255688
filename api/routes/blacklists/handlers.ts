import { auditActorOf } from '../../audit/auditActor.js';
import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import type { Handler } from '../../validate.js';
import {
  addToBlacklist,
  blacklistedAddresses,
  blacklistedChains,
  listBlacklist,
  removeFromBlacklist,
} from '../../reads/blacklists/repo.js';
import type { addBlacklistBody, addressParams, checkQuery, listBlacklistQuery, noQuery } from './schema.js';

const ZERO_ADDRESS = `0x${'0'.repeat(40)}`;

/** GET /v4/blacklists: entries newest first, paged, optionally of one chain. Table blacklists. */
export function listBlacklistHandler(deps: ApiDeps): Handler<{ query: typeof listBlacklistQuery }> {
  return async (ctx) => {
    ctx.body = await listBlacklist(deps.pg, ctx.state.query);
  };
}

/** GET /v4/blacklists/mapping: `{ [address]: true }` for every blacklisted address. Table blacklists. */
export function blacklistMappingHandler(deps: ApiDeps): Handler<{ query: typeof noQuery }> {
  return async (ctx) => {
    ctx.body = Object.fromEntries((await blacklistedAddresses(deps.pg)).map((a) => [a, true]));
  };
}

/** GET /v4/blacklists/check/{address}: true when it is blacklisted (on `chainId`, or on any chain). Table blacklists. */
export function checkBlacklistHandler(
  deps: ApiDeps,
): Handler<{ params: typeof addressParams; query: typeof checkQuery }> {
  return async (ctx) => {
    const chains = await blacklistedChains(deps.pg, ctx.state.params.address);
    const { chainId } = ctx.state.query;
    ctx.body = chainId === undefined ? chains.length > 0 : chains.includes(chainId);
  };
}

/** POST /v4/blacklists (back office): adds an entry, audit-logged in its transaction. */
export function addBlacklistHandler(deps: ApiDeps): Handler<{ body: typeof addBlacklistBody }> {
  return async (ctx) => {
    const b = ctx.state.body;
    if (!deps.config.chains.some((c) => c.id === b.chainId))
      throw new ValidationError([{ field: 'chainId', message: `chain ${b.chainId} is not indexed here` }]);
    const { entry } = await addToBlacklist(deps.pg, auditActorOf(ctx), {
      chainId: b.chainId,
      userAddress: b.userAddress,
      poolAddress: b.poolAddress ?? ZERO_ADDRESS,
      reason: b.reason ?? null,
      at: Math.floor(Date.now() / 1000),
    });
    ctx.body = entry;
  };
}

/** DELETE /v4/blacklists/user/{address} (back office): removes all its entries; true when there were any. */
export function removeBlacklistHandler(deps: ApiDeps): Handler<{ params: typeof addressParams }> {
  return async (ctx) => {
    ctx.body = (await removeFromBlacklist(deps.pg, auditActorOf(ctx), ctx.state.params.address)).length > 0;
  };
}
