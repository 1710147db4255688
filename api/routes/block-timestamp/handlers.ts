import { readChain } from '../../chain/readChain.js';
import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';
import {
  BlockBeyondHeadError,
  findBlockBounds,
  findBlockTimestamp,
  findClosestBlock,
  type Source,
} from './blockLookup.js';
import type { Handler } from '../../validate.js';
import type { blockQuery, boundsQuery, timestampQuery } from './schema.js';

/**
 * The lookup source of a configured chain (indexed headers, then the chain's RPC through readChain: its
 * gate, deadline and per-request budget); else a 400 naming chainId.
 */
function sourceOf(deps: ApiDeps, chainId: number): Source {
  const chain = deps.rpc.get(chainId);
  if (!chain)
    throw new ValidationError([
      { field: 'chainId', message: `is not a supported chain (supported: ${[...deps.rpc.keys()].join(', ')})` },
    ]);
  // Block reads run no code: the gas limit only bounds eth_calls, of which a lookup makes none.
  const gas = BigInt(deps.config.chainReads.readGas);
  return { pg: deps.pg, chainId, read: (read) => readChain(deps, chain, { gas }, read) };
}

/** GET /v4/block-timestamp/block: the block closest to a timestamp. */
export function closestBlockHandler(deps: ApiDeps): Handler<{ query: typeof blockQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    ctx.body = { blockNumber: await findClosestBlock(sourceOf(deps, q.chainId), q.timestamp) };
  };
}

/** GET /v4/block-timestamp/timestamp: the timestamp of a block; a block past the chain head is a 400 naming blockNumber. */
export function blockTimestampHandler(deps: ApiDeps): Handler<{ query: typeof timestampQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const timestamp = await findBlockTimestamp(sourceOf(deps, q.chainId), q.blockNumber).catch((e: unknown) => {
      if (e instanceof BlockBeyondHeadError)
        throw new ValidationError([
          {
            field: 'blockNumber',
            message: `is beyond the chain head (block ${e.head}): that block does not exist yet`,
          },
        ]);
      throw e;
    });
    ctx.body = { timestamp };
  };
}

/** GET /v4/block-timestamp/bounds: the blocks just before and after a timestamp. */
export function blockBoundsHandler(deps: ApiDeps): Handler<{ query: typeof boundsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    ctx.body = await findBlockBounds(sourceOf(deps, q.chainId), q.timestamp);
  };
}
