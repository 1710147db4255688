import { expect } from 'chai';
import { stackedRows, stackSegments } from '../../../../web/shared/stackLayout.js';

describe('web/shared/stackLayout', () => {
  const series = { '2026-11': { a: 30, b: 10 }, '2026-09': { b: 20, c: 0 } };

  it('draws one bar per month in order, keys stacked in the given order from the axis up, on one scale', () => {
    const { periods, top, segments } = stackSegments(series, ['a', 'b'], 600);
    expect(periods).to.deep.equal(['2026-09', '2026-11']);
    expect(top).to.equal(40);
    // Zero values draw nothing; the largest month reaches the top of the plot (H 220 − 14 − 30 = 176 px).
    expect(segments.map((s) => [s.period, s.key, s.value])).to.deep.equal([
      ['2026-09', 'b', 20],
      ['2026-11', 'a', 30],
      ['2026-11', 'b', 10],
    ]);
    const [sep, nova, novb] = segments;
    expect(nova!.h + novb!.h).to.be.closeTo(176, 1e-9);
    expect(sep!.h).to.be.closeTo(88, 1e-9);
    expect(novb!.y + novb!.h).to.be.closeTo(nova!.y, 1e-9);
    expect(nova!.x).to.be.greaterThan(sep!.x);
  });

  it('lists every figure as table rows with each month’s total, keys not named in order following', () => {
    expect(stackedRows(series, ['b'])).to.deep.equal([
      {
        period: '2026-09',
        total: 20,
        items: [
          { key: 'b', value: 20 },
          { key: 'c', value: 0 },
        ],
      },
      {
        period: '2026-11',
        total: 40,
        items: [
          { key: 'b', value: 10 },
          { key: 'a', value: 30 },
        ],
      },
    ]);
  });

  it('draws nothing for an empty series or one of zeros', () => {
    expect(stackSegments({}, []).segments).to.deep.equal([]);
    expect(stackSegments({ '2026-01': { a: 0 } }, ['a']).segments).to.deep.equal([]);
  });
});
