import { expect } from 'chai';
import {
  formatAmount,
  formatDurationMs,
  formatPercent,
  formatTime,
  formatUsd,
  keepIdsWhole,
} from '../../../../web/shared/format.js';

describe('web/shared/format', () => {
  it('formats USD compactly and percentages, with a dash for missing values', () => {
    expect(formatUsd(1_234_567)).to.equal('$1.23M');
    expect(formatUsd('272029339.63')).to.equal('$272.03M');
    expect(formatUsd(null)).to.equal('–');
    expect(formatPercent(12.345)).to.equal('12.35%');
    expect(formatPercent(undefined)).to.equal('–');
  });

  it('turns base-unit amounts into whole tokens without floating point', () => {
    expect(formatAmount('97000000000000000000', 18)).to.equal('97');
    expect(formatAmount('1500000', 6)).to.equal('1.5');
    expect(formatAmount('123456789012345678901234567890', 18)).to.equal('123,456,789,012.345678');
    expect(formatAmount('5', 0)).to.equal('5');
  });

  it('formats Unix seconds in UTC and durations', () => {
    expect(formatTime('1795219200')).to.equal('2026-11-21 00:00 UTC');
    expect(formatTime(null)).to.equal('–');
    expect(formatDurationMs(850)).to.equal('850 ms');
    expect(formatDurationMs(2400)).to.equal('2.4 s');
    expect(formatDurationMs(185_000)).to.equal('3m05s');
  });

  it('keeps abbreviated addresses and ids whole: a word joiner after the ellipsis, nothing else changed', () => {
    expect(keepIdsWhole('Provide 0x742a…49f6')).to.equal('Provide 0x742a…\u206049f6');
    expect(keepIdsWhole('Lend 0xb79a…ab12 and 0x01ea…77cd')).to.equal('Lend 0xb79a…\u2060ab12 and 0x01ea…\u206077cd');
    expect(keepIdsWhole('Hold stETHx… soon')).to.equal('Hold stETHx… soon');
  });
});
