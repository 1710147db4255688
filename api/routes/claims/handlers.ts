import type { Context } from 'koa';
import { readChain } from '../../chain/readChain.js';
import type { ApiDeps } from '../../deps.js';
import { resolveChainIds } from '../../reads/users/params.js';
import { countClaims, latestClaims, listClaims, loadClaimsSyncState, type ClaimDbRow } from './repo.js';
import { campaignVisibilityOf, hiddenOnChainCampaignIds } from '../../visibility/campaignVisibility.js';
import type { Handler } from '../../validate.js';
import type { chainIdsQuery, countQuery, historyParams, listClaimsQuery } from './schema.js';
import { serializeClaim, serializeClaimsStatus, serializeCompactClaim, serializeWatermark } from './serialize.js';

/** Compact claims per chain in /v4/claims/latest. */
export const LATEST_CLAIMS = 100;

/** GET /v4/claims: claims filtered by chain(s), recipient, token, campaign and attributed root, newest first. */
export function listClaimsHandler(deps: ApiDeps): Handler<{ query: typeof listClaimsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const chainIds = q.chainIds
      ? resolveChainIds(deps, 'chainIds', q.chainIds)
      : q.chainId !== undefined
        ? [q.chainId]
        : undefined;
    const hidden = await hiddenFrom(deps, ctx);
    if (q.campaignId && [...hidden].some((k) => k.endsWith(`:${q.campaignId!.toLowerCase()}`))) {
      ctx.body = [];
      return;
    }
    const rows = await listClaims(deps.pg, { ...q, chainIds });
    setLastModified(ctx, rows);
    ctx.body = rows.map((row) => serializeClaim(withoutHidden(row, hidden)));
  };
}

/** `${chainId}:${campaignId}` of the private campaigns hidden from this caller (README "Campaign visibility"). */
async function hiddenFrom(deps: ApiDeps, ctx: Context): Promise<Set<string>> {
  return hiddenOnChainCampaignIds(deps.pg, await campaignVisibilityOf(deps, ctx.state, true), null);
}

/** A claim row without the breakdowns of hidden campaigns (its own amount, a token transfer, stays). */
function withoutHidden(row: ClaimDbRow, hidden: Set<string>): ClaimDbRow {
  if (!hidden.size || !row.breakdowns) return row;
  return {
    ...row,
    breakdowns: row.breakdowns.filter((b) => !hidden.has(`${row.chain_id}:${b.campaignId.toLowerCase()}`)),
  };
}

/**
 * `Last-Modified`: the block time of the newest claim answered (lists are newest first, so a new
 * claim moves a newer one into every page). The weak ETag stays the exact validator: a client
 * sending both gets a 304 only when both match.
 */
function setLastModified(ctx: Context, rows: { timestamp: string }[]): void {
  const newest = rows.reduce((max, r) => Math.max(max, Number(r.timestamp)), 0);
  if (newest > 0) ctx.lastModified = new Date(newest * 1000);
}

/** GET /v4/claims/history/{address}: that address's claims on the given (default: all) chains. */
export function claimsHistoryHandler(
  deps: ApiDeps,
): Handler<{ params: typeof historyParams; query: typeof chainIdsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const chainIds = resolveChainIds(deps, 'chainIds', q.chainIds);
    const hidden = await hiddenFrom(deps, ctx);
    const rows = await listClaims(deps.pg, {
      chainIds,
      recipient: ctx.state.params.address,
      page: q.page,
      items: q.items,
    });
    setLastModified(ctx, rows);
    ctx.body = rows.map((row) => serializeClaim(withoutHidden(row, hidden)));
  };
}

/** GET /v4/claims/latest: per chain, its latest compact claims and the claims job watermark. */
export function latestClaimsHandler(deps: ApiDeps): Handler<{ query: typeof chainIdsQuery }> {
  return async (ctx) => {
    const chainIds = resolveChainIds(deps, 'chainIds', ctx.state.query.chainIds);
    const entries = await Promise.all(
      chainIds.map(async (chainId) => {
        const [claims, state] = await Promise.all([
          latestClaims(deps.pg, chainId, LATEST_CLAIMS),
          loadClaimsSyncState(deps.pg, chainId),
        ]);
        return [
          chainId,
          { claims: claims.map(serializeCompactClaim), etlWatermark: serializeWatermark(state) },
        ] as const;
      }),
    );
    ctx.body = Object.fromEntries(entries);
  };
}

/**
 * The chain head, read through readChain (the chain's gate, CHAIN_READ_DEADLINE_MS, the request budget);
 * null when the chain is not configured or the read fails (busy gate, deadline, node down): the status
 * then says the head is unknown rather than failing.
 */
async function readHead(deps: ApiDeps, chainId: number): Promise<{ number: number; timestamp: number } | null> {
  const chain = deps.rpc.get(chainId);
  if (!chain) return null;
  const gas = BigInt(deps.config.chainReads.readGas);
  return readChain(deps, chain, { gas }, (client) => client.getBlock({ blockTag: 'latest' })).then(
    (b) => ({ number: Number(b.number), timestamp: Number(b.timestamp) }),
    () => null,
  );
}

/** GET /v4/claims/status: per chain, the claims source's progress against the chain head (read within the bounds of chain reads). */
export function claimsStatusHandler(deps: ApiDeps): Handler<{ query: typeof chainIdsQuery }> {
  return async (ctx) => {
    const chainIds = resolveChainIds(deps, 'chainIds', ctx.state.query.chainIds);
    const entries = await Promise.all(
      chainIds.map(async (chainId) => {
        const [state, head] = await Promise.all([loadClaimsSyncState(deps.pg, chainId), readHead(deps, chainId)]);
        return [chainId, serializeClaimsStatus(chainId, state, head)] as const;
      }),
    );
    ctx.body = Object.fromEntries(entries);
  };
}

/** GET /v4/claims/count?chainId: number of claims stored for the chain. */
export function countClaimsHandler(deps: ApiDeps): Handler<{ query: typeof countQuery }> {
  return async (ctx) => {
    ctx.body = await countClaims(deps.pg, ctx.state.query.chainId);
  };
}

/** GET /v4/claims/count/total: number of claims stored over every chain. */
export function countTotalHandler(deps: ApiDeps) {
  return async (ctx: Context): Promise<void> => {
    ctx.body = await countClaims(deps.pg);
  };
}
