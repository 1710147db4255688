import { expect } from 'chai';
import { toWindow } from '../../../../../api/reads/reward-totals/distributed.js';

const seconds = (iso: string) => Date.parse(iso) / 1000;

describe('toWindow (GET /v4/rewards/total/distributed from/to)', () => {
  it('reads a bare date as `to` as the whole day, its last second included', () => {
    expect(toWindow({ to: '2026-11-28' })).to.deep.equal({ from: null, to: seconds('2026-11-28T23:59:59Z') });
  });

  it('reads a bare date as `from` as the start of the day', () => {
    expect(toWindow({ from: '2026-11-28', to: '2026-11-28' })).to.deep.equal({
      from: seconds('2026-11-28T00:00:00Z'),
      to: seconds('2026-11-28T23:59:59Z'),
    });
  });

  it('keeps a date-time or a timestamp as `to` exact', () => {
    expect(toWindow({ to: '2026-11-28T12:00:00Z' })).to.deep.equal({ from: null, to: seconds('2026-11-28T12:00:00Z') });
    expect(toWindow({ to: '1795000000' })).to.deep.equal({ from: null, to: 1_795_000_000 });
  });

  it('accepts a `to` in the future', () => {
    expect(toWindow({ to: '2999-01-01' })).to.deep.equal({ from: null, to: seconds('2999-01-01T23:59:59Z') });
  });

  it('refuses a `to` before `from` and names it', () => {
    expect(toWindow({ from: '2026-11-29', to: '2026-11-28' })).to.deep.equal({
      errors: [{ field: 'to', message: 'must not be before from' }],
    });
  });
});
