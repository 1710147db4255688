import { expect } from 'chai';
import { checkOverride, toAmount, toSeconds } from '../../../../../api/routes/overrides/checkOverride.js';

const NOW = 1_800_000_000;
const token = '0x1111111111111111111111111111111111111111';
const base = {
  rewardToken: token,
  amount: '1000000000000000000000',
  startTimestamp: NOW + 3600,
  endTimestamp: NOW + 86_400,
};
const paths = (r: ReturnType<typeof checkOverride>) => r.errors.map((e) => e.path);

describe('checkOverride', () => {
  it('accepts an override changing only the end (to a later time) and the campaign data', () => {
    expect(checkOverride(base, { ...base, endTimestamp: NOW + 2 * 86_400, targetToken: '0x2' }, NOW)).to.deep.equal({
      isValid: true,
      errors: [],
    });
  });

  it('refuses a changed reward token, case-insensitively equal tokens pass', () => {
    expect(
      paths(checkOverride(base, { ...base, rewardToken: '0x2222222222222222222222222222222222222222' }, NOW)),
    ).to.deep.equal(['rewardToken']);
    expect(
      checkOverride(base, { ...base, rewardToken: token.toUpperCase().replace('0X', '0x') }, NOW).isValid,
    ).to.equal(true);
  });

  it('refuses a changed amount, comparing string and number forms as integers', () => {
    expect(paths(checkOverride(base, { ...base, amount: '1000000000000000000001' }, NOW))).to.deep.equal(['amount']);
    expect(checkOverride({ ...base, amount: '5000' }, { ...base, amount: 5000 }, NOW).isValid).to.equal(true);
  });

  it('allows moving the start before the campaign started, refuses it after', () => {
    expect(checkOverride(base, { ...base, startTimestamp: String(NOW + 7200) }, NOW).isValid).to.equal(true);
    const started = { ...base, startTimestamp: NOW - 10 };
    expect(paths(checkOverride(started, { ...started, startTimestamp: NOW - 5 }, NOW))).to.deep.equal([
      'startTimestamp',
    ]);
    expect(checkOverride(started, { ...started, startTimestamp: String(NOW - 10) }, NOW).isValid).to.equal(true);
  });

  it('requires the new end (endTimestamp, else start + duration) to be in the future', () => {
    expect(paths(checkOverride(base, { ...base, endTimestamp: NOW }, NOW))).to.deep.equal(['endTimestamp']);
    const { endTimestamp: _e, ...noEnd } = base;
    expect(checkOverride(noEnd, { ...noEnd, duration: '3600' }, NOW).isValid).to.equal(true);
    expect(paths(checkOverride({ ...noEnd, startTimestamp: NOW - 7200 }, { duration: 3600 }, NOW))).to.deep.equal([
      'endTimestamp',
    ]);
    expect(paths(checkOverride({}, {}, NOW))).to.deep.equal(['endTimestamp']);
  });

  it('names malformed timestamps and amounts by side', () => {
    const r = checkOverride({ ...base, amount: '1.5' }, { ...base, startTimestamp: 'soon' }, NOW);
    expect(paths(r)).to.include.members(['oldConfig.amount', 'newConfig.startTimestamp']);
    expect(r.isValid).to.equal(false);
  });

  it('parses timestamps and amounts from numbers or digit strings only', () => {
    expect(toSeconds('1700000000')).to.equal(1_700_000_000);
    expect(toSeconds(undefined)).to.equal(undefined);
    expect(toSeconds('-1')).to.be.NaN;
    expect(toAmount('007')).to.equal(7n);
    expect(toAmount(1.5)).to.equal(null);
  });
});
