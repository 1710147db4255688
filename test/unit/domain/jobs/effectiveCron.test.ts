import { expect } from 'chai';
import { effectiveCron } from '../../../../domain/jobs/effectiveCron.js';

describe('domain/jobs/effectiveCron', () => {
  it('prefers the job_state override over JOB_<NAME>_CRON and the default', () => {
    expect(
      effectiveCron({ stateCron: '*/30 * * * * *', envCron: '*/10 * * * * *', defaultCron: '*/5 * * * * *' }),
    ).to.deep.equal({ cron: '*/30 * * * * *', source: 'job_state' });
  });

  it('falls back to JOB_<NAME>_CRON without an override', () => {
    expect(effectiveCron({ stateCron: null, envCron: '*/10 * * * * *', defaultCron: '*/5 * * * * *' })).to.deep.equal({
      cron: '*/10 * * * * *',
      source: 'env',
    });
  });

  it('falls back to the job default without override or environment', () => {
    expect(effectiveCron({ defaultCron: '*/5 * * * * *' })).to.deep.equal({ cron: '*/5 * * * * *', source: 'default' });
  });

  it('treats blank values as unset and trims the others', () => {
    expect(effectiveCron({ stateCron: '  ', envCron: ' 0 * * * * ', defaultCron: '*/5 * * * * *' })).to.deep.equal({
      cron: '0 * * * *',
      source: 'env',
    });
  });
});
