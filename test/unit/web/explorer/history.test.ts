import { expect } from 'chai';
import { bucketStart, campaignStatusAt, sumSeriesByBucket } from '../../../../web/explorer/history.js';

const at = (iso: string) => Date.parse(iso) / 1000;

describe('web/explorer/history', () => {
  it('truncates to UTC hour, day, Monday week and month like date_trunc', () => {
    const t = at('2026-11-21T14:35:10Z'); // a Saturday
    expect(bucketStart(t, 'hour')).to.equal(at('2026-11-21T14:00:00Z'));
    expect(bucketStart(t, 'day')).to.equal(at('2026-11-21T00:00:00Z'));
    expect(bucketStart(t, 'week')).to.equal(at('2026-11-16T00:00:00Z'));
    expect(bucketStart(at('2026-11-16T00:00:00Z'), 'week')).to.equal(at('2026-11-16T00:00:00Z'));
    expect(bucketStart(t, 'month')).to.equal(at('2026-11-01T00:00:00Z'));
  });

  it('averages each campaign per bucket, then sums campaigns per bucket, oldest first', () => {
    const day1 = at('2026-11-20T01:00:00Z');
    const day2 = at('2026-11-21T01:00:00Z');
    const series = [
      [
        { t: day2, v: 10 },
        { t: day1, v: 4 },
        { t: day1 + 3600, v: 6 },
      ],
      [{ t: day2 + 60, v: 1 }],
    ];
    expect(sumSeriesByBucket(series, 'day')).to.deep.equal([
      { t: at('2026-11-20T00:00:00Z'), v: 5 },
      { t: at('2026-11-21T00:00:00Z'), v: 11 },
    ]);
    expect(sumSeriesByBucket([], 'day')).to.deep.equal([]);
  });

  it('tells a campaign window LIVE, SOON or PAST (end exclusive)', () => {
    expect(campaignStatusAt(10, 20, 5)).to.equal('SOON');
    expect(campaignStatusAt(10, 20, 10)).to.equal('LIVE');
    expect(campaignStatusAt(10, 20, 20)).to.equal('PAST');
  });
});
