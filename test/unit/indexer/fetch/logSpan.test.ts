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

  it('with a target of logs per batch, grows only while answers are sparse and shrinks in proportion after a dense one', () => {
    const span = createLogSpan({ max: 5000, initial: 100, targetLogs: 1000 });
    span.answered(100); // sparse: doubles
    expect(span.current()).to.equal(200);
    span.answered(700); // between half and twice the target: stays
    expect(span.current()).to.equal(200);
    span.answered(8000); // eight times the target: an eighth of the span
    expect(span.current()).to.equal(25);
    span.answered(400); // sparse again: grows again (density changes along a chain)
    expect(span.current()).to.equal(50);
    for (let i = 0; i < 5; i++) span.answered(1_000_000);
    expect(span.current(), 'never below one block').to.equal(1);
    span.refused(1);
    span.answered(0);
    expect(span.current(), 'a refusal still stops the growth').to.equal(1);
  });

  it('without a target, or without a count, grows as before', () => {
    const span = createLogSpan({ max: 5000, initial: 100 });
    span.answered(1_000_000);
    expect(span.current()).to.equal(200);
    const counted = createLogSpan({ max: 5000, initial: 100, targetLogs: 10 });
    counted.answered();
    expect(counted.current()).to.equal(200);
  });
});
