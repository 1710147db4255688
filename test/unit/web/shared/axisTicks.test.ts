import { expect } from 'chai';
import { axisTicks } from '../../../../web/shared/axisTicks.js';

describe('web/shared/axisTicks', () => {
  const bins = (edges: number[]) => edges.slice(0, -1).map((min, i) => ({ min, max: edges[i + 1]!, count: 1 }));

  it('labels the edges between bars at their position', () => {
    expect(axisTicks(bins([0, 10, 20, 30]))).to.deep.equal([
      { at: 1 / 3, value: 10 },
      { at: 2 / 3, value: 20 },
    ]);
  });

  it('thins the labels of many bars to at most five', () => {
    const ticks = axisTicks(bins([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    expect(ticks.length).to.be.at.most(5);
    expect(ticks[0]).to.deep.equal({ at: 1 / 12, value: 1 });
  });

  it('has no inner edge for a single bin', () => {
    expect(axisTicks(bins([0, 5]))).to.deep.equal([]);
  });
});
