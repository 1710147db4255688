import { expect } from 'chai';
import { JOBS } from '../../../jobs/registry.js';
import { jobSet } from '../../../jobs/scheduler.js';
import { loadConfig } from '../../../internal/config.js';

describe('jobs/scheduler jobSet (SCHEDULER_JOBS)', () => {
  it('runs every job when unset, the named ones in pipeline order otherwise', () => {
    expect(jobSet(undefined)).to.equal(JOBS);
    const config = loadConfig({ SCHEDULER_JOBS: 'publish,blocks' });
    expect(jobSet(config.schedulerJobs).map((j) => j.name)).to.deep.equal(['blocks', 'publish']);
  });

  it('stops startup naming an unknown job', () => {
    expect(() => jobSet(['blocks', 'nope'])).to.throw(/SCHEDULER_JOBS names unknown jobs: nope/);
    expect(() => loadConfig({ SCHEDULER_JOBS: 'Blocks;x' })).to.throw(/SCHEDULER_JOBS/);
  });
});
