import { expect } from 'chai';
import { planDemoPool } from '../../../scripts/seedDemoProtocols.js';

/** Value in token1 base units of liquidity L in [lower, upper) at sqrt price sP (base units), as the pool computes it. */
function valueIn1(sP: number, price: number, p: { tickLower: number; tickUpper: number; liquidity: bigint }) {
  const [sA, sB] = [Math.sqrt(1.0001 ** p.tickLower), Math.sqrt(1.0001 ** p.tickUpper)];
  const L = Number(p.liquidity);
  const s = Math.min(Math.max(sP, sA), sB);
  return L * (s - sA) + ((L * (sB - s)) / (s * sB)) * price;
}

describe('scripts/seedDemoProtocols planDemoPool: the demo pools start at the demo prices with their value in three ranges', () => {
  it('starts a pool of two $1 tokens of 18 decimals at sqrtPriceX96 2^96', () => {
    const usd = { address: '0x0000000000000000000000000000000000000001' as const, decimals: 18, priceUsd: 1 };
    expect(planDemoPool(usd, usd, 1_000_000).sqrtPriceX96).to.equal(2n ** 96n);
  });

  it('puts about tvlUsd in the two in-range positions, on the 0.3 % tier tick spacing, the third above the price', () => {
    const wbtc = { address: '0x0000000000000000000000000000000000000001' as const, decimals: 18, priceUsd: 64_000 };
    const usdc = { address: '0x0000000000000000000000000000000000000002' as const, decimals: 6, priceUsd: 1 };
    const { sqrtPriceX96, positions } = planDemoPool(wbtc, usdc, 4_000_000);
    const price = 64_000 * 1e-12; // USDCx base units per wBTCx base unit
    const sP = Number(sqrtPriceX96) / 2 ** 96;
    expect(sP ** 2 / price).to.be.closeTo(1, 1e-9);
    const tick = Math.log(price) / Math.log(1.0001);
    for (const p of positions) expect([Math.abs(p.tickLower % 60), Math.abs(p.tickUpper % 60)]).to.deep.equal([0, 0]);
    const [narrow, wide, above] = positions;
    expect(narrow!.tickLower < tick && tick < narrow!.tickUpper).to.equal(true);
    expect(wide!.tickLower < narrow!.tickLower && narrow!.tickUpper < wide!.tickUpper).to.equal(true);
    expect(above!.tickLower).to.be.greaterThan(tick);
    const inRangeUsd = (valueIn1(sP, price, narrow!) + valueIn1(sP, price, wide!)) / 1e6;
    expect(inRangeUsd / 4_000_000).to.be.closeTo(1, 1e-6);
  });
});
