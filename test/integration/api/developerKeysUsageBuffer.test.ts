import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { withTransaction as inWriteTransaction } from '../../../internal/pg.js';
import { createUsageBuffer } from '../../../api/usage/usageBuffer.js';
import { createLogger } from '../../../internal/logger.js';
import { createPgPool, type PgPool } from '../../../internal/pg.js';
import { resetDatabase } from '../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../helpers/testConfig.js';

describe('api/usage/usageBuffer on PostgreSQL', function () {
  let pool: PgPool;

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    pool = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-usage', readOnly: true });
  });
  after(async () => pool?.end());

  it('upserts buffered counts in one flush, and keeps them through a failed flush', async function () {
    const buffer = createUsageBuffer({
      pool,
      logger: createLogger({ level: 'silent', name: 'test' }),
      intervalMs: 3_600_000,
    });
    const id = randomUUID();
    const at = new Date('2026-11-21T12:00:00Z');
    buffer.record(id, 'GET /v4/chains', at);
    buffer.record(id, 'GET /v4/chains', at);
    buffer.record(id, 'GET /v4/tokens', at);
    // The key row does not exist yet: the flush fails on the foreign key and must keep the counts.
    await buffer.flush().then(
      () => expect.fail('flush should fail'),
      () => {},
    );
    const count = async () =>
      (await pool.query('SELECT endpoint, count::int FROM api_key_usage WHERE key_id = $1 ORDER BY endpoint', [id]))
        .rows;
    expect(await count()).to.deep.equal([]);
    await inWriteTransaction(pool, (client) =>
      client.query(
        "INSERT INTO api_keys (id, owner_address, prefix, key_hash, description) VALUES ($1, '0xabc', 'rk_', 'h', 'd')",
        [id],
      ),
    );
    buffer.record(id, 'GET /v4/chains', at);
    await buffer.flush();
    expect(await count()).to.deep.equal([
      { endpoint: 'GET /v4/chains', count: 3 },
      { endpoint: 'GET /v4/tokens', count: 1 },
    ]);
    await buffer.stop();
    expect(await count()).to.have.length(2);
  });
});
