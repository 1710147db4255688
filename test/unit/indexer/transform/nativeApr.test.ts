import { expect } from 'chai';
import {
  morphoSupplyApr,
  nativeAprRecordOf,
  NO_NATIVE_APR,
  SECONDS_PER_YEAR,
  shareGrowthApr,
} from '../../../../indexer/transform/nativeApr.js';
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
      for (const status of ['unsupported-target', 'read-failed', 'no-history'] as const) {
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
