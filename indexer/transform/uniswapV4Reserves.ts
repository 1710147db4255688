/**
 * Pure Uniswap V4 pool math (the v4-core 1.0.2 libraries, ported to bigint): the sqrt price of a tick,
 * the tick bitmap's layout, and a pool's token reserves summed over its liquidity ranges.
 */

/** The tick range every pool lives in (TickMath.MIN_TICK / MAX_TICK). */
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

const Q96 = 2n ** 96n;
const MAX_UINT256 = 2n ** 256n - 1n;

/** TickMath's per-bit ratios: bit i of |tick| multiplies the price by RATIOS[i] / 2^128. */
const RATIOS = [
  0xfff97272373d413259a46990580e213an,
  0xfff2e50f5f656932ef12357cf3c7fdccn,
  0xffe5caca7e10e4e61c3624eaa0941cd0n,
  0xffcb9843d60f6159c9db58835c926644n,
  0xff973b41fa98c081472e6896dfb254c0n,
  0xff2ea16466c96a3843ec78b326b52861n,
  0xfe5dee046a99a2a811c461f1969c3053n,
  0xfcbe86c7900a88aedcffc83b479aa3a4n,
  0xf987a7253ac413176f2b074cf7815e54n,
  0xf3392b0822b70005940c7a398e4b70f3n,
  0xe7159475a2c29b7443b29c7fa6e889d9n,
  0xd097f3bdfd2022b8845ad8f792aa5825n,
  0xa9f746462d870fdf8a65dc1f90e061e5n,
  0x70d869a156d2a1b890bb3df62baf32f7n,
  0x31be135f97d08fd981231505542fcfa6n,
  0x9aa508b5b7a84e1c677de54f3e99bc9n,
  0x5d6af8dedb81196699c329225ee604n,
  0x2216e584f5fa1ea926041bedfe98n,
  0x48a170391f7dc42444e8fa2n,
];

/**
 * TickMath.getSqrtPriceAtTick: sqrt(1.0001^tick) in Q64.96, bit for bit as the PoolManager computes it.
 * @throws RangeError outside [MIN_TICK, MAX_TICK].
 */
export function sqrtPriceAtTick(tick: number): bigint {
  const abs = Math.abs(tick);
  if (!Number.isInteger(tick) || abs > MAX_TICK) throw new RangeError(`tick ${tick} outside the tick range`);
  let price = abs & 1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 2n ** 128n;
  RATIOS.forEach((ratio, i) => {
    if (abs & (2 << i)) price = (price * ratio) >> 128n;
  });
  if (tick > 0) price = MAX_UINT256 / price;
  return (price + (1n << 32n) - 1n) >> 32n;
}

/**
 * The bitmap words a pool of this tick spacing can use (TickBitmap.position of the compressed
 * MIN_TICK and MAX_TICK): word w holds the compressed ticks [256·w, 256·w + 255].
 */
export function bitmapWordRange(tickSpacing: number): { from: number; to: number } {
  const compress = (tick: number) => Math.floor(tick / tickSpacing);
  return { from: compress(MIN_TICK) >> 8, to: compress(MAX_TICK) >> 8 };
}

/** The ticks a bitmap word flags as initialized (bit b of word w is tick (256·w + b) · tickSpacing). */
export function ticksOfBitmapWord(wordPos: number, word: bigint, tickSpacing: number): number[] {
  const ticks: number[] = [];
  for (let bit = 0; word > 0n; bit++, word >>= 1n) if (word & 1n) ticks.push((wordPos * 256 + bit) * tickSpacing);
  return ticks;
}

/** SqrtPriceMath.getAmount0Delta rounded down: token0 of liquidity between two sqrt prices. */
function amount0Between(sqrtA: bigint, sqrtB: bigint, liquidity: bigint): bigint {
  return ((liquidity << 96n) * (sqrtB - sqrtA)) / sqrtB / sqrtA;
}

/** SqrtPriceMath.getAmount1Delta rounded down: token1 of liquidity between two sqrt prices. */
function amount1Between(sqrtA: bigint, sqrtB: bigint, liquidity: bigint): bigint {
  return (liquidity * (sqrtB - sqrtA)) / Q96;
}

export type PoolReservesParams = {
  /** slot0's price and tick. */
  sqrtPriceX96: bigint;
  tick: number;
  /** Every initialized tick of the pool with its liquidityNet, in any order. */
  ticks: { tick: number; liquidityNet: bigint }[];
};

export type PoolReservesResult = {
  amount0: bigint;
  amount1: bigint;
  /** Liquidity the walk finds active at `tick` (ranges with tickLower ≤ tick < tickUpper). */
  activeLiquidity: bigint;
  /** Liquidity left after the last tick: 0 when the ticks are complete (every range opens and closes). */
  danglingLiquidity: bigint;
};

/**
 * The tokens a pool's positions hold at the current price: walking the initialized ticks left to
 * right, each range [t_i, t_i+1) holds the running sum L of liquidityNet; below the price it is all
 * token1 (L·(√B − √A)), above it all token0 (L·(√B − √A)/(√A·√B)), across it split at √P. Each
 * range is rounded down as a withdrawal is, so the sum is at most what the positions deposited
 * (deposits round up) by a few base units per range. Uncollected fees are not liquidity: not counted.
 * The caller checks `activeLiquidity` against the pool's `liquidity` and `danglingLiquidity` is 0.
 */
export function poolReserves({ sqrtPriceX96, tick, ticks }: PoolReservesParams): PoolReservesResult {
  const sorted = [...ticks].sort((a, b) => a.tick - b.tick);
  let liquidity = 0n;
  let activeLiquidity = 0n;
  let amount0 = 0n;
  let amount1 = 0n;
  for (let i = 0; i < sorted.length; i++) {
    liquidity += sorted[i]!.liquidityNet;
    if (sorted[i]!.tick <= tick) activeLiquidity = liquidity;
    const next = sorted[i + 1];
    if (!next || liquidity <= 0n) continue;
    const sqrtA = sqrtPriceAtTick(sorted[i]!.tick);
    const sqrtB = sqrtPriceAtTick(next.tick);
    if (sqrtPriceX96 <= sqrtA) amount0 += amount0Between(sqrtA, sqrtB, liquidity);
    else if (sqrtPriceX96 >= sqrtB) amount1 += amount1Between(sqrtA, sqrtB, liquidity);
    else {
      amount0 += amount0Between(sqrtPriceX96, sqrtB, liquidity);
      amount1 += amount1Between(sqrtA, sqrtPriceX96, liquidity);
    }
  }
  return { amount0, amount1, activeLiquidity, danglingLiquidity: liquidity };
}
