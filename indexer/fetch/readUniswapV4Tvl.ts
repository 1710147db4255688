import {
  BaseError,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  hexToBigInt,
  keccak256,
  parseAbi,
  toHex,
  type Hex,
} from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { tokenDbId } from '../../domain/ids.js';
import type { UniswapV4PoolKey } from '../../domain/uniswapV4PoolId.js';
import type { UnpricedTvlReading } from '../transform/computeMetrics.js';
import { bitmapWordRange, poolReserves, ticksOfBitmapWord } from '../transform/uniswapV4Reserves.js';
import { resolveUniswapV4PoolKeys } from './resolveUniswapV4PoolKeys.js';

const managerAbi = parseAbi([
  'function extsload(bytes32[] slots) view returns (bytes32[])',
  'function decimals() view returns (uint8)',
]);

/** StateLibrary (v4-core 1.0.2): `pools` is slot 6 of the PoolManager; offsets inside a Pool.State. */
const POOLS_SLOT = 6n;
const LIQUIDITY_OFFSET = 3n;
const TICKS_OFFSET = 4n;
const TICK_BITMAP_OFFSET = 5n;
/** Currency address 0 is the chain's native token (stored at that address by the tokens job). */
const NATIVE = '0x0000000000000000000000000000000000000000';

/** How much one read may cost; past a bound the pool is NONE with a reason, never a partial sum. */
export type UniswapV4TvlBounds = {
  /** Bitmap words of one pool (its tick spacing fixes how many: 6,932 at spacing 1, 116 at 60). */
  maxBitmapWords: number;
  /** Initialized ticks of one pool whose liquidityNet is read. */
  maxInitializedTicks: number;
  /** Storage slots per `extsload(bytes32[])` eth_call. */
  slotsPerCall: number;
  /** Gas limit of each eth_call (a cold slot costs 2,100). */
  gasPerCall: bigint;
};

/** Every tick spacing's whole bitmap fits (≤ 7 calls of 1,000 slots); 4,000 initialized ticks in ≤ 4 more. */
export const UNISWAP_V4_TVL_BOUNDS: UniswapV4TvlBounds = {
  maxBitmapWords: 7_000,
  maxInitializedTicks: 4_000,
  slotsPerCall: 1_000,
  gasPerCall: 10_000_000n,
};

const none = (detail: string): UnpricedTvlReading => ({ method: 'NONE', tokens: [], reason: 'read-failed', detail });
/** An RPC failure in one line: viem's short message and the node's own words. */
const describe = (error: unknown) =>
  error instanceof BaseError
    ? [error.shortMessage, error.details].filter(Boolean).join(' ')
    : String(error instanceof Error ? error.message : error).split('\n')[0];

const word = (n: bigint) => toHex(BigInt.asUintN(256, n), { size: 32 });
/** Solidity's `keccak256(abi.encodePacked(int256(key), mappingSlot))`: the slot of a mapping entry. */
const mappingSlot = (key: bigint, slot: bigint) =>
  hexToBigInt(keccak256(encodeAbiParameters([{ type: 'int256' }, { type: 'uint256' }], [key, slot])));

/** `extsload` of many slots in calls of `slotsPerCall`, each an eth_call with its gas limit (readContract takes none). */
async function readSlots(
  { client }: ChainClient,
  at: { manager: `0x${string}`; blockNumber: bigint },
  slots: bigint[],
  bounds: UniswapV4TvlBounds,
): Promise<bigint[]> {
  const calls: Promise<readonly Hex[]>[] = [];
  for (let i = 0; i < slots.length; i += bounds.slotsPerCall) {
    const args = [slots.slice(i, i + bounds.slotsPerCall).map(word)] as const;
    const data = encodeFunctionData({ abi: managerAbi, functionName: 'extsload', args });
    calls.push(
      client
        .call({ to: at.manager, data, gas: bounds.gasPerCall, blockNumber: at.blockNumber })
        .then((r) => decodeFunctionResult({ abi: managerAbi, functionName: 'extsload', data: r.data ?? '0x' })),
    );
  }
  return (await Promise.all(calls)).flat().map((v) => hexToBigInt(v));
}

/** One pool's token amounts from its state, or the reason it has none. */
async function readPool(
  chainClient: ChainClient,
  at: { manager: `0x${string}`; blockNumber: bigint },
  poolId: string,
  key: UniswapV4PoolKey,
  bounds: UniswapV4TvlBounds,
): Promise<{ amount0: bigint; amount1: bigint } | string> {
  const state = hexToBigInt(
    keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolId as Hex, POOLS_SLOT])),
  );
  const [slot0, liquidity] = await readSlots(chainClient, at, [state, state + LIQUIDITY_OFFSET], bounds);
  const sqrtPriceX96 = BigInt.asUintN(160, slot0!);
  if (!sqrtPriceX96) return 'pool not initialized';
  const tick = Number(BigInt.asIntN(24, slot0! >> 160n));
  const words = bitmapWordRange(key.tickSpacing);
  const wordCount = words.to - words.from + 1;
  if (wordCount > bounds.maxBitmapWords)
    return `tick bitmap of ${wordCount} words exceeds the bound of ${bounds.maxBitmapWords}`;
  const positions = Array.from({ length: wordCount }, (_, i) => words.from + i);
  const bitmap = await readSlots(
    chainClient,
    at,
    positions.map((w) => mappingSlot(BigInt(w), state + TICK_BITMAP_OFFSET)),
    bounds,
  );
  const ticks = positions.flatMap((w, i) => ticksOfBitmapWord(w, bitmap[i]!, key.tickSpacing));
  if (ticks.length > bounds.maxInitializedTicks)
    return `${ticks.length} initialized ticks exceed the bound of ${bounds.maxInitializedTicks}`;
  const infos = await readSlots(
    chainClient,
    at,
    ticks.map((t) => mappingSlot(BigInt(t), state + TICKS_OFFSET)),
    bounds,
  );
  // Tick.Info's first word: liquidityGross in the low 128 bits, liquidityNet (signed) in the high 128.
  const reserves = poolReserves({
    sqrtPriceX96,
    tick,
    ticks: ticks.map((t, i) => ({ tick: t, liquidityNet: BigInt.asIntN(128, infos[i]! >> 128n) })),
  });
  // The walk must find the pool's own active liquidity and close every range, else the ticks read
  // are not the pool's (a storage layout other than StateLibrary's): refuse the figure.
  if (reserves.activeLiquidity !== BigInt.asUintN(128, liquidity!) || reserves.danglingLiquidity !== 0n)
    return 'initialized ticks disagree with the pool liquidity';
  return reserves;
}

/**
 * TVL inputs of Uniswap V4 pools (UNISWAP_V4 opportunities whose identifier is a 32-byte pool id) on
 * the chain's PoolManager singleton, which holds every pool's tokens together, so no balance is the
 * pool's: its key comes from its `Initialize` event (resolveUniswapV4PoolKeys), its state from
 * `extsload` (StateLibrary layout: slot0, liquidity, every bitmap word of its tick spacing, the
 * liquidityNet of each initialized tick; all at one block, in calls bounded by `bounds`), and its
 * amounts are the reserves of its liquidity ranges at the current price (poolReserves; uncollected
 * fees excluded), then each currency's decimals (address 0: the chain's native token).
 * An unknown or uninitialized pool, a read past `bounds`, an inconsistent walk or a failed read give
 * NONE with a reason (docs/api-behaviour.md#tvl-per-protocol). A pool whose key is known carries its
 * currencies and fee as its `underlying` (what names the opportunity), whatever its state answers.
 * @returns opportunity id → reading.
 */
export async function readUniswapV4Tvl(
  chainClient: ChainClient,
  manager: `0x${string}`,
  pools: { id: string; identifier: string }[],
  bounds: UniswapV4TvlBounds = UNISWAP_V4_TVL_BOUNDS,
): Promise<Map<string, UnpricedTvlReading>> {
  const readings = new Map<string, UnpricedTvlReading>();
  if (!pools.length) return readings;
  const { chain, client } = chainClient;
  // Every pool's key and state are read at one block, so a pool's slot0, bitmap and ticks agree.
  const at = { manager, blockNumber: await client.getBlockNumber({ cacheTime: 0 }) };
  let keys: Map<string, UniswapV4PoolKey>;
  try {
    keys = await resolveUniswapV4PoolKeys(
      chainClient,
      manager,
      pools.map((p) => p.identifier),
      at.blockNumber,
    );
  } catch (error) {
    const reason = `Initialize logs unavailable: ${describe(error)}`;
    for (const p of pools) readings.set(p.id, none(reason));
    return readings;
  }
  for (const p of pools) {
    const key = keys.get(p.identifier.toLowerCase());
    if (!key) {
      readings.set(p.id, none('no Initialize event for this pool id'));
      continue;
    }
    // The verified key says what the pool stands on, whatever its state answers.
    const underlying = {
      tokens: [key.currency0, key.currency1],
      fee: key.fee,
      lltv: null,
      contract: manager.toLowerCase(),
      tickSpacing: key.tickSpacing,
      hooks: key.hooks,
    };
    const amounts = await readPool(chainClient, at, p.identifier, key, bounds).catch(
      (error: unknown) => `state read failed: ${describe(error)}`,
    );
    if (typeof amounts === 'string') {
      readings.set(p.id, { ...none(amounts), underlying });
      continue;
    }
    const currencies = [key.currency0, key.currency1];
    const decimals = await client.multicall({
      contracts: currencies.map((c) => ({ address: c, abi: managerAbi, functionName: 'decimals' as const })),
      allowFailure: true,
      deployless: true,
    });
    const tokens = currencies.map((c, i) => {
      const d =
        c === NATIVE ? chain.nativeToken.decimals : decimals[i]?.status === 'success' ? decimals[i].result : null;
      const amount = i === 0 ? amounts.amount0 : amounts.amount1;
      return d === null
        ? null
        : { tokenId: tokenDbId(chain.id, c), tokenAddress: c, amount: amount.toString(), decimals: Number(d) };
    });
    readings.set(
      p.id,
      tokens.every((t) => t !== null)
        ? { method: 'UNISWAP_V4_POOL', tokens: tokens as NonNullable<(typeof tokens)[0]>[], underlying }
        : { ...none('a currency has no decimals()'), underlying },
    );
  }
  return readings;
}
