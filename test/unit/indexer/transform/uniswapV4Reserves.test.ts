import { expect } from 'chai';
import {
  MAX_TICK,
  MIN_TICK,
  bitmapWordRange,
  poolReserves,
  sqrtPriceAtTick,
  ticksOfBitmapWord,
} from '../../../../indexer/transform/uniswapV4Reserves.js';

const Q96 = 2 ** 96;
/** Float reference: token amounts of liquidity L in [a, b) at sqrt price p (all plain sqrt prices). */
function reference(L: number, a: number, b: number, p: number) {
  const lo = Math.min(Math.max(p, a), b);
  return { amount0: L * (1 / lo - 1 / b), amount1: L * (lo - a) };
}
const sqrt = (tick: number) => Math.sqrt(1.0001 ** tick);

describe('indexer/transform/uniswapV4Reserves', () => {
  it('sqrtPriceAtTick equals TickMath at its bounds and 1.0001^(tick/2) in between', () => {
    expect(sqrtPriceAtTick(0)).to.equal(2n ** 96n);
    expect(sqrtPriceAtTick(MIN_TICK)).to.equal(4295128739n);
    expect(sqrtPriceAtTick(MAX_TICK)).to.equal(1461446703485210103287273052203988822378723970342n);
    for (const tick of [-200_000, -6_000, -1, 1, 60, 6_000, 200_000]) {
      const got = Number(sqrtPriceAtTick(tick)) / Q96;
      expect(got, String(tick)).to.be.closeTo(sqrt(tick), sqrt(tick) * 1e-9);
    }
    expect(() => sqrtPriceAtTick(MAX_TICK + 1)).to.throw(RangeError);
  });

  it('bitmapWordRange covers the compressed tick range of the spacing', () => {
    expect(bitmapWordRange(60)).to.deep.equal({ from: -58, to: 57 });
    expect(bitmapWordRange(1)).to.deep.equal({ from: -3466, to: 3465 });
    expect(bitmapWordRange(200)).to.deep.equal({ from: -18, to: 17 });
  });

  it('ticksOfBitmapWord turns set bits into ticks, negative words included', () => {
    expect(ticksOfBitmapWord(0, 0b101n, 60)).to.deep.equal([0, 120]);
    expect(ticksOfBitmapWord(-1, 1n << 255n, 60)).to.deep.equal([-60]);
    expect(ticksOfBitmapWord(-1, 1n, 10)).to.deep.equal([-2560]);
    expect(ticksOfBitmapWord(3, 0n, 1)).to.deep.equal([]);
  });

  it('sums token0 above the price, token1 below and both across it, per range of the running liquidity', () => {
    const L = 10n ** 18n;
    // Three positions: [-600, 600) across price 1, [1200, 2400) above, [-2400, -1200) below, plus a
    // second one on [-600, 600) stacked from 0: ranges split at 0 hold 2L on [0, 600).
    const ticks = [
      { tick: -600, liquidityNet: L },
      { tick: 600, liquidityNet: -2n * L },
      { tick: 0, liquidityNet: L },
      { tick: 1200, liquidityNet: L },
      { tick: 2400, liquidityNet: -L },
      { tick: -2400, liquidityNet: L },
      { tick: -1200, liquidityNet: -L },
    ];
    const r = poolReserves({ sqrtPriceX96: 2n ** 96n, tick: 0, ticks });
    const l = Number(L);
    const parts = [
      reference(l, sqrt(-600), sqrt(0), 1),
      reference(2 * l, sqrt(0), sqrt(600), 1),
      reference(l, sqrt(1200), sqrt(2400), 1),
      reference(l, sqrt(-2400), sqrt(-1200), 1),
    ];
    const expected0 = parts.reduce((s, p) => s + p.amount0, 0);
    const expected1 = parts.reduce((s, p) => s + p.amount1, 0);
    expect(Number(r.amount0)).to.be.closeTo(expected0, expected0 * 1e-9);
    expect(Number(r.amount1)).to.be.closeTo(expected1, expected1 * 1e-9);
    expect(r.activeLiquidity).to.equal(2n * L);
    expect(r.danglingLiquidity).to.equal(0n);
  });

  it('a price moved inside a range splits it there; a range ending at the price is all token1', () => {
    const L = 10n ** 20n;
    const ticks = [
      { tick: -600, liquidityNet: L },
      { tick: 600, liquidityNet: -L },
    ];
    const at = (tick: number) => poolReserves({ sqrtPriceX96: sqrtPriceAtTick(tick), tick, ticks });
    const moved = at(300);
    const expected = reference(Number(L), sqrt(-600), sqrt(600), sqrt(300));
    expect(Number(moved.amount0)).to.be.closeTo(expected.amount0, expected.amount0 * 1e-9);
    expect(Number(moved.amount1)).to.be.closeTo(expected.amount1, expected.amount1 * 1e-9);
    expect(at(600)).to.include({ amount0: 0n, activeLiquidity: 0n });
    expect(at(-600)).to.include({ amount1: 0n, activeLiquidity: L });
  });

  it('reports liquidity left open when the ticks are incomplete', () => {
    const r = poolReserves({ sqrtPriceX96: 2n ** 96n, tick: 0, ticks: [{ tick: -60, liquidityNet: 5n }] });
    expect(r.danglingLiquidity).to.equal(5n);
  });
});
