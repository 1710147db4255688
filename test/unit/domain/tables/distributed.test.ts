import { expect } from 'chai';
import { rollupClock, rollupClockDue, statusSql } from '../../../../domain/tables/distributed.js';

describe('domain/tables/distributed: campaign statuses and the status rollups’ horizon', () => {
  it('spells each status as the campaign’s start and end against now, any of them', () => {
    expect(statusSql(['SOON'], '$7', 'cc')).to.equal('(cc.start_timestamp > $7)');
    expect(statusSql(['LIVE', 'PAST'], '$7')).to.equal(
      '((start_timestamp <= $7 AND end_timestamp > $7) OR end_timestamp <= $7)',
    );
  });

  it('holds a day from a rebuild (and a few minutes before it), and asks for the next rebuild half way', () => {
    const built = 1_800_000_000;
    const clock = rollupClock(built);
    expect(clock.validFrom).to.be.below(built);
    expect(clock.validUntil).to.equal(built + 86_400);
    expect(rollupClockDue(null, built), 'never built').to.equal(true);
    expect(rollupClockDue(clock, built)).to.equal(false);
    expect(rollupClockDue(clock, built + 43_200)).to.equal(false);
    expect(rollupClockDue(clock, built + 43_201)).to.equal(true);
    expect(rollupClockDue(clock, clock.validFrom - 1), 'a clock behind the rebuild').to.equal(true);
  });
});
