import { expect } from 'chai';
import { createPgPool } from '../../../internal/pg.js';
import { createReadPool, type ReadPool } from '../../../internal/readReplica.js';
import { eventually } from '../../helpers/eventually.js';
import { TEST_DATABASE_URL } from '../../helpers/testConfig.js';

describe('internal/readReplica: a read failing on the replica is answered by the primary (real servers)', () => {
  let read: ReadPool;
  const primary = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-read-primary', max: 2 });

  before(async () => {
    // The lag check answers (a server not in recovery: no lag), but the read pool's server is gone
    // (nothing listens on port 1): the state a replica is in between its death and the next check.
    read = createReadPool({
      primary,
      replica: createPgPool({ connectionString: 'postgres://postgres:pw@127.0.0.1:1/none', applicationName: 'gone' }),
      monitor: createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-read-monitor', max: 1 }),
      maxLagMs: 60_000,
      checkIntervalMs: 30_000,
    });
    await eventually(() => expect(read.status()).to.include({ serving: 'replica', reason: 'healthy', lagMs: 0 }), {
      timeoutMs: 1000,
      intervalMs: 20,
      what: 'the first lag check',
    });
  });

  after(async () => {
    await read.close();
    await primary.end();
  });

  it('retries once on the primary, then keeps reads on the primary until a check answers again', async () => {
    const { rows } = await read.query<{ who: string }>('SELECT current_setting($1) AS who', ['application_name']);
    expect(rows).to.deep.equal([{ who: 'test-read-primary' }]);
    expect(read.status()).to.include({ serving: 'primary', reason: 'query-failed', retriedOnPrimary: 1 });
    await read.query('SELECT 1');
    expect(read.status().retriedOnPrimary, 'the next read goes straight to the primary').to.equal(1);
  });
});
