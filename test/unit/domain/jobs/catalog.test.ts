import { expect } from 'chai';
import { JOB_CATALOG, JOB_NAMES, jobInfo } from '../../../../domain/jobs/catalog.js';
import { JOBS } from '../../../../jobs/registry.js';

describe('domain/jobs/catalog', () => {
  it('names every registered job, in the registry order, with the schedule and description the job runs with', () => {
    expect(
      JOBS.map((j) => ({
        name: j.name,
        defaultCron: j.defaultCron,
        description: j.description,
        perChain: j.perChain,
        concurrent: j.concurrent,
      })),
      // noBlockLag is what the catalog adds for operators (why a job has no block lag), not part of the job.
    ).to.deep.equal(
      JOB_CATALOG.map(({ noBlockLag: _, ...j }) => ({ perChain: undefined, concurrent: undefined, ...j })),
    );
    expect(JOBS.filter((j) => j.perChain).map((j) => j.name)).to.deep.equal([
      'blocks',
      'campaigns',
      'campaign-fees',
      'roots',
      'claims',
      'tokens',
    ]);
    expect(JOB_NAMES).to.deep.equal(JOBS.map((j) => j.name));
  });

  it('refuses a name that is not a job', () => {
    expect(jobInfo('publish').name).to.equal('publish');
    expect(() => jobInfo('nope')).to.throw('unknown job nope');
  });
});
