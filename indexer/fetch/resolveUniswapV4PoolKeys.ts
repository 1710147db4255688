import { parseAbiItem, type Hex } from 'viem';
import { uniswapV4PoolId, type UniswapV4PoolKey } from '../../domain/uniswapV4PoolId.js';
import type { ChainClient } from '../../internal/rpc.js';

const initializeEvent = parseAbiItem(
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
);

/**
 * Verified pool keys by pool id (lower-case). Keeping them is safe across blocks, reorganizations and
 * chains: a key whose hash is the id is that id's key wherever the id exists. Oldest dropped first.
 */
const knownKeys = new Map<string, UniswapV4PoolKey>();
const KNOWN_KEYS_MAX = 10_000;
/** Ids per eth_getLogs (topic OR-lists stay small for every provider). */
const IDS_PER_CALL = 100;

/**
 * The PoolKey of each id from the PoolManager's `Initialize` event (indexed id, currency0, currency1;
 * fee, tickSpacing, hooks in its data): one eth_getLogs per 100 ids not yet known to this process,
 * over blocks [0, toBlock], filtered by address, event and ids, so it returns at most one log per pool
 * whatever the block range.
 * A key is kept only when it hashes to its id (a log never vouches for itself).
 * @returns id → key of each id whose event was seen (a key kept from another chain is the same key:
 *   the caller still checks that the pool is initialized here); an id absent has no such event.
 * @throws the getLogs failure (a provider refusing the range): the caller reads no pool then.
 */
export async function resolveUniswapV4PoolKeys(
  { client }: ChainClient,
  manager: `0x${string}`,
  ids: string[],
  toBlock: bigint,
): Promise<Map<string, UniswapV4PoolKey>> {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const unknown = wanted.filter((id) => !knownKeys.has(id));
  for (let i = 0; i < unknown.length; i += IDS_PER_CALL) {
    const logs = await client.getLogs({
      address: manager,
      event: initializeEvent,
      args: { id: unknown.slice(i, i + IDS_PER_CALL) as Hex[] },
      fromBlock: 0n,
      toBlock,
    });
    for (const { args } of logs) {
      const key = {
        currency0: args.currency0!.toLowerCase() as `0x${string}`,
        currency1: args.currency1!.toLowerCase() as `0x${string}`,
        fee: args.fee!,
        tickSpacing: args.tickSpacing!,
        hooks: args.hooks!.toLowerCase() as `0x${string}`,
      };
      if (uniswapV4PoolId(key) !== args.id!.toLowerCase()) continue;
      if (knownKeys.size >= KNOWN_KEYS_MAX) knownKeys.delete(knownKeys.keys().next().value!);
      knownKeys.set(args.id!.toLowerCase(), key);
    }
  }
  const found = new Map<string, UniswapV4PoolKey>();
  for (const id of wanted) if (knownKeys.has(id)) found.set(id, knownKeys.get(id)!);
  return found;
}
