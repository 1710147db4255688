import { expect } from 'chai';
import {
  morphoSupplyApr,
  nativeAprRecordOf,
  NO_NATIVE_APR,
  pricedNativeApr,
  SECONDS_PER_YEAR,
  shareGrowthApr,
  uniswapV3FeesEarned,
  type NativeAprReading,
} from '../../../../indexer/transform/nativeApr.js';
import type { StoredPrice } from '../../../../domain/prices.js';
import { computeOpportunityMetrics, NO_TVL_READING } from '../../../../indexer/transform/computeMetrics.js';

const WAD = 10n ** 18n;

describe('nativeApr: the protocol’s own yield (#42)', () => {
  describe('morphoSupplyApr', () => {
    it('is borrow rate × utilization × (1 − fee) × seconds per year × 100, simple', () => {
      // 10% a year borrow rate per second, half utilized, 10% fee: 10% × 0.5 × 0.9 = 4.5%.
      const borrowRate = WAD / 10n / BigInt(SECONDS_PER_YEAR);
      const apr = morphoSupplyApr(borrowRate, 1_000_000n, 500_000n, WAD / 10n);
      expect(apr).to.be.closeTo(4.5, 1e-9);
    });
    it('is 0 for an empty market and with no borrows', () => {
      expect(morphoSupplyApr(10n ** 10n, 0n, 0n, 0n)).to.equal(0);
      expect(morphoSupplyApr(10n ** 10n, 100n, 0n, 0n)).to.equal(0);
    });
    it('gives suppliers nothing with a 100% fee', () => {
      expect(morphoSupplyApr(10n ** 10n, 100n, 50n, WAD)).to.equal(0);
    });
  });

  describe('shareGrowthApr', () => {
    it('is growth × 365 × 100 over exactly one day', () => {
      // 1.000 → 1.0001 in a day: 0.01% a day, 3.65% a year.
      expect(shareGrowthApr(10n ** 18n, 10n ** 18n + 10n ** 14n, 86_400)).to.be.closeTo(3.65, 1e-9);
    });
    it('annualizes by the time actually elapsed', () => {
      expect(shareGrowthApr(1000n, 1001n, 2 * 86_400)).to.be.closeTo((0.1 * 365) / 2, 1e-9);
    });
    it('is negative when the share price fell, null without a price before or time', () => {
      expect(shareGrowthApr(1000n, 999n, 86_400)).to.be.closeTo(-36.5, 1e-9);
      expect(shareGrowthApr(0n, 1n, 86_400)).to.equal(null);
      expect(shareGrowthApr(1n, 1n, 0)).to.equal(null);
    });
  });

  describe('uniswapV3FeesEarned', () => {
    const Q128 = 1n << 128n;
    it('is Δ feeGrowthGlobal × liquidity >> 128', () => {
      // 3 base units per unit of liquidity over 10^6 liquidity: 3·10^6.
      expect(uniswapV3FeesEarned(5n * Q128, 8n * Q128, 10n ** 6n)).to.equal(3_000_000n);
      expect(uniswapV3FeesEarned(Q128, Q128 + Q128 / 2n, 3n)).to.equal(1n); // 1.5 rounded down
    });
    it('takes the difference mod 2^256: the growth wraps as the pool’s does', () => {
      const max = (1n << 256n) - 1n;
      expect(uniswapV3FeesEarned(max - Q128 + 1n, Q128, 10n)).to.equal(20n);
    });
  });

  describe('pricedNativeApr: a pool’s fees against its TVL', () => {
    const fees: NativeAprReading = {
      method: 'UNISWAP_V3_FEES',
      status: 'ok',
      apr: null,
      fees: {
        elapsedSeconds: 86_400,
        tokens: [
          { tokenId: 'a', amount: '2000000', decimals: 6 }, // 2 A
          { tokenId: 'b', amount: '5000000000000000000', decimals: 18 }, // 5 B
        ],
      },
    };
    const price = (p: number, stale = false): StoredPrice => ({ price: p, updatedAt: 0, priceSource: 't', stale });
    const prices = new Map([
      ['a', price(1)],
      ['b', price(2)],
    ]);
    it('is fees in USD / TVL × 365 days / elapsed × 100, simple', () => {
      // $12 of fees a day on $10 000: 0.12 % a day, 43.8 % a year; over two days, half that.
      expect(pricedNativeApr(fees, prices, 10_000)).to.include({ status: 'ok', method: 'UNISWAP_V3_FEES' });
      expect(pricedNativeApr(fees, prices, 10_000).apr).to.be.closeTo(43.8, 1e-9);
      const twoDays = { ...fees, fees: { ...fees.fees!, elapsedSeconds: 2 * 86_400 } };
      expect(pricedNativeApr(twoDays, prices, 10_000).apr).to.be.closeTo(21.9, 1e-9);
    });
    it('is unknown (unpriced) for a token without a fresh price, and for an unknown or zero TVL, never 0', () => {
      const cases: [Map<string, StoredPrice>, number | null, RegExp][] = [
        [new Map([['a', price(1)]]), 10_000, /no fresh price for b/],
        [
          new Map([
            ['a', price(1)],
            ['b', price(2, true)],
          ]),
          10_000,
          /no fresh price for b/,
        ],
        [prices, null, /TVL is unknown/],
        [prices, 0, /TVL is 0/],
      ];
      for (const [p, tvl, detail] of cases) {
        const r = pricedNativeApr(fees, p, tvl);
        expect(r).to.include({ status: 'unpriced', apr: null });
        expect(r.detail).to.match(detail);
        const { nativeApr, record } = nativeAprRecordOf(r, '7');
        expect(nativeApr).to.equal(0);
        expect(record.status).to.equal('unpriced');
        expect(record.description).to.match(/^Unknown/);
      }
    });
    it('leaves readings without fees as they are; an unpriced fee reading is never served as a known 0', () => {
      const morpho: NativeAprReading = { method: 'MORPHO_BLUE_SUPPLY_RATE', status: 'ok', apr: 3 };
      expect(pricedNativeApr(morpho, prices, null)).to.equal(morpho);
      expect(nativeAprRecordOf(fees, '7').record.status).to.equal('read-failed');
    });
  });

  describe('nativeAprRecordOf and the opportunity metrics', () => {
    it('serves a read APR with status ok', () => {
      const { nativeApr, record } = nativeAprRecordOf(
        { method: 'MORPHO_BLUE_SUPPLY_RATE', status: 'ok', apr: 4.5 },
        '7',
      );
      expect(nativeApr).to.equal(4.5);
      expect(record).to.include({ value: 4.5, status: 'ok', timestamp: '7', title: 'Native APR' });
      expect(record.description).to.match(/simple \(not compounded\)/);
    });
    it('never serves 0 as a known yield: an unknown one says why', () => {
      for (const status of ['unsupported-target', 'read-failed', 'no-history', 'unpriced'] as const) {
        const { nativeApr, record } = nativeAprRecordOf({ method: 'NONE', status, apr: null }, '7');
        expect(nativeApr).to.equal(0);
        expect(record.status).to.equal(status);
        expect(record.description).to.match(/^Unknown/);
      }
      // An `ok` without a number is a failed read.
      expect(nativeAprRecordOf({ method: 'ERC4626_SHARE_PRICE', status: 'ok', apr: null }, '7').record.status).to.equal(
        'read-failed',
      );
    });
    it('computeOpportunityMetrics carries the native APR and its record (read-failed without a reading)', () => {
      const read = computeOpportunityMetrics('o', [], NO_TVL_READING, 100, {
        method: 'MORPHO_BLUE_SUPPLY_RATE',
        status: 'ok',
        apr: 3.2,
      });
      expect(read.nativeApr).to.equal(3.2);
      expect(read.records.nativeAprRecord).to.include({ value: 3.2, status: 'ok' });
      const none = computeOpportunityMetrics('o', [], NO_TVL_READING, 100);
      expect(NO_NATIVE_APR.status).to.equal('read-failed');
      expect(none.nativeApr).to.equal(0);
      expect(none.records.nativeAprRecord).to.include({ value: 0, status: 'read-failed' });
    });
  });
});
