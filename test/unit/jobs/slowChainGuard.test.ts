import { expect } from 'chai';
import { createSlowChainGuard } from '../../../jobs/slowChainGuard.js';

describe('jobs/slowChainGuard', () => {
  it('lets a chain run units together until one is slow, then holds it to its share of the slots', () => {
    const guard = createSlowChainGuard({ slots: 4, chains: 4, slowUnitMs: 1000 });
    expect(guard.mayNotStart(1, 1), 'not known slow').to.equal(false);
    guard.ended(1, 3000, true);
    expect(guard.mayNotStart(1, 1), 'slow and one unit running: its share of 4 slots over 4 chains').to.equal(true);
    expect(guard.mayNotStart(2, 1), 'other chains are not held').to.equal(false);
    guard.ended(undefined, 3000, true); // a job that is not per chain marks nothing
    expect(guard.mayNotStart(1, 0), 'nothing of it running').to.equal(false);
  });

  it('marks a chain slow on a failed run and lifts the mark on a fast one', () => {
    const guard = createSlowChainGuard({ slots: 4, chains: 4, slowUnitMs: 1000 });
    guard.ended(7, 10, false);
    expect(guard.mayNotStart(7, 1)).to.equal(true);
    guard.ended(7, 10, true);
    expect(guard.mayNotStart(7, 1), 'fast again').to.equal(false);
  });

  it('gives a slow chain ⌊slots ÷ chains⌋ units, at least one, and a process with one chain every slot', () => {
    const two = createSlowChainGuard({ slots: 4, chains: 2, slowUnitMs: 1000 });
    two.ended(1, 5000, true);
    expect(two.mayNotStart(1, 1), 'one of its two').to.equal(false);
    expect(two.mayNotStart(1, 2), 'two of two').to.equal(true);
    const many = createSlowChainGuard({ slots: 4, chains: 10, slowUnitMs: 1000 });
    many.ended(1, 5000, true);
    expect(many.mayNotStart(1, 0), 'none running: it may start one').to.equal(false);
    const alone = createSlowChainGuard({ slots: 4, chains: 1, slowUnitMs: 1000 });
    alone.ended(1, 5000, true);
    expect(alone.mayNotStart(1, 3), 'three of four slots').to.equal(false);
    expect(alone.mayNotStart(1, 4)).to.equal(true);
  });
});
