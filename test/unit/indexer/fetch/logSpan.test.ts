import { expect } from 'chai';
import { createLogSpan } from '../../../../indexer/fetch/logSpan.js';

describe('indexer/fetch/logSpan', () => {
  it('starts small and doubles after each answer up to the configured maximum', () => {
    const span = createLogSpan({ max: 5000, initial: 100 });
    const seen = [span.current()];
    for (let i = 0; i < 7; i++) {
      span.answered();
      seen.push(span.current());
    }
    expect(seen).to.deep.equal([100, 200, 400, 800, 1600, 3200, 5000, 5000]);
  });

  it('halves below a refused span and stops growing for the run', () => {
    const span = createLogSpan({ max: 5000, initial: 100 });
    span.answered();
    span.refused(200);
    expect(span.current()).to.equal(100);
    span.answered();
    span.answered();
    expect(span.current()).to.equal(100);
    span.refused(100);
    expect(span.current()).to.equal(50);
  });

  it('never goes below one block, nor above a maximum smaller than the initial span', () => {
    const span = createLogSpan({ max: 10, initial: 100 });
    expect(span.current()).to.equal(10);
    for (let i = 0; i < 10; i++) span.refused(span.current());
    expect(span.current()).to.equal(1);
  });
});
