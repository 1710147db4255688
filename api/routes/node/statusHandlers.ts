import { configuredChain } from '../../configuredChain.js';
import type { Context } from 'koa';
import { readChain } from '../../chain/readChain.js';
import { type ApiDeps, sharedOnAppClock } from '../../deps.js';
import type { Handler } from '../../validate.js';
import { lastSuccessAt, loadCursors, newestStoredBlocks } from './indexingRepo.js';
import { type HeadReading, nodeStatus, staleCursors } from './indexingState.js';
import type { etlHealthQuery, lastBlockQuery } from './statusSchema.js';

/** How long one node-status computation answers every caller (one head read per chain: the route is public). */
export const NODE_STATUS_CACHE_MS = 1000;

/** ETL_MAX_AGE of the hosted etl-health: a cursor older than this is stale. */
export const ETL_MAX_AGE_MINUTES = 120;

/**
 * The head of every configured chain, each read through readChain (the chain's gate, the read
 * deadline; a block read runs no code, the gas limit bounds nothing here): a node that fails or is
 * too slow is an error for that chain, never for the others.
 */
async function readHeads(deps: ApiDeps): Promise<Map<number, HeadReading>> {
  const gas = BigInt(deps.config.chainReads.readGas);
  const entries = await Promise.all(
    deps.config.chains.map(async (c): Promise<[number, HeadReading]> => {
      const chain = deps.rpc.get(c.id);
      if (!chain) return [c.id, { error: 'no RPC client configured' }];
      try {
        const block = await readChain(deps, chain, { gas }, (client) => client.getBlock({ blockTag: 'latest' }));
        return [c.id, { number: Number(block.number), timestamp: Number(block.timestamp) }];
      } catch (error) {
        return [c.id, { error: error instanceof Error ? error.message : String(error) }];
      }
    }),
  );
  return new Map(entries);
}

/** GET /v4/node/status: each configured chain's head and its jobs' cursors, shared for NODE_STATUS_CACHE_MS. */
export function nodeStatusHandler(deps: ApiDeps) {
  const shared = sharedOnAppClock(
    deps,
    async () => {
      const [cursors, heads] = await Promise.all([loadCursors(deps.pg), readHeads(deps)]);
      return nodeStatus(deps.config.chains, cursors, heads);
    },
    NODE_STATUS_CACHE_MS,
  );
  return async (ctx: Context): Promise<void> => {
    ctx.set('cache-control', 'no-store');
    ctx.body = await shared();
  };
}

/**
 * GET /v4/node/last-block: the block a job's cursor reached on a chain (without `protocol`, the most
 * advanced cursor of the chain); null when none has run there.
 */
export function lastBlockHandler(deps: ApiDeps): Handler<{ query: typeof lastBlockQuery }> {
  return async (ctx) => {
    const { chainId, protocol } = ctx.state.query;
    configuredChain(deps, chainId);
    const cursors = await loadCursors(deps.pg, { chainId, job: protocol });
    const best = cursors.reduce<(typeof cursors)[number] | null>(
      (a, c) => (!a || Number(c.block_number) > Number(a.block_number) ? c : a),
      null,
    );
    ctx.set('cache-control', 'no-store');
    // A bare JSON null body would be read by Koa as "no body" (204): serialize it ourselves.
    ctx.type = 'application/json';
    ctx.body = JSON.stringify(
      best
        ? { protocol: best.job, chainId, lastFetchedBlockNumber: Number(best.block_number), source: 'cursors' }
        : null,
    );
  };
}

/**
 * GET /v4/etl-health: 200 `{ success: true, filesChecked }` when no job cursor of a configured chain
 * is older than `maxAgeMinutes`, else 503 with the stalest one as `staleFile` (the hosted shape).
 */
export function etlHealthHandler(deps: ApiDeps): Handler<{ query: typeof etlHealthQuery }> {
  return async (ctx) => {
    const maxAgeMinutes = ctx.state.query.maxAgeMinutes ?? ETL_MAX_AGE_MINUTES;
    const chainIds = deps.config.chains.map((c) => c.id);
    const [cursors, newest, blocksSuccess] = await Promise.all([
      loadCursors(deps.pg),
      newestStoredBlocks(deps.pg, chainIds),
      lastSuccessAt(deps.pg, 'blocks', chainIds),
    ]);
    const { checked, stale } = staleCursors(chainIds, cursors, newest, blocksSuccess, new Date(), maxAgeMinutes * 60);
    ctx.set('cache-control', 'no-store');
    ctx.status = stale.length ? 503 : 200;
    ctx.body = stale.length
      ? { success: false, filesChecked: checked, staleFile: stale[0], staleFiles: stale }
      : { success: true, filesChecked: checked };
  };
}
