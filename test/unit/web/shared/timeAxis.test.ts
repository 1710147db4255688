import { expect } from 'chai';
import { timeAxisLabels } from '../../../../web/shared/timeAxis.js';

describe('web/shared/timeAxis', () => {
  const t = (iso: string) => Date.parse(iso) / 1000;

  it('labels a span of minutes by time of day, its date in the axis title (#44: "2026-11-28 … 2026-11-28")', () => {
    const l = timeAxisLabels(t('2026-11-28T14:05:00Z'), t('2026-11-28T14:35:00Z'));
    expect([l.from, l.to, l.title]).to.deep.equal(['14:05', '14:35', 'time (UTC), 2026-11-28']);
    expect(l.point(t('2026-11-28T14:20:00Z'))).to.equal('2026-11-28 14:20 UTC');
  });

  it('names both dates when a span under a day crosses midnight, and labels days from a day up', () => {
    expect(timeAxisLabels(t('2026-11-28T20:00:00Z'), t('2026-11-29T02:00:00Z')).title).to.equal(
      'time (UTC), 2026-11-28 – 29',
    );
    const days = timeAxisLabels(t('2026-11-01T00:00:00Z'), t('2026-11-28T00:00:00Z'));
    expect([days.from, days.to, days.title]).to.deep.equal(['2026-11-01', '2026-11-28', 'time (UTC)']);
  });
});
