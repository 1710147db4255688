import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { createLogger } from '../../../internal/logger.js';
import { migrate } from '../../../sql/migrate.js';
import { resetDatabase } from '../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../helpers/testConfig.js';

const logger = createLogger({ level: 'silent', name: 'test' });
const files = readdirSync(new URL('../../../sql/migrations/', import.meta.url)).filter((f) => f.endsWith('.sql'))
  // Same-day counters sort numerically (…_9 before …_10), as the runner orders them.
  .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));

describe('sql/migrate', function () {
  let client: pg.Client;

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
  });

  after(async () => client?.end());

  it('applies every migration file in order and records each in the ledger', async function () {
    const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => `${r.name}.sql`)).to.deep.equal(files);
  });

  it('is idempotent: a second run applies nothing', async function () {
    expect(await migrate({ databaseUrl: TEST_DATABASE_URL, logger })).to.deep.equal([]);
  });

  it('lets concurrent runners wait on the advisory lock instead of racing', async function () {
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    const results = await Promise.all([1, 2, 3].map(() => migrate({ databaseUrl: TEST_DATABASE_URL, logger })));
    expect(results.flat().sort()).to.deep.equal(files.map((f) => f.replace(/\.sql$/, '')).sort());
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM schema_migrations');
    expect(Number(rows[0]!.n)).to.equal(files.length);
  });

  it('stores uint256 amounts as numeric(78,0)', async function () {
    const { rows } = await client.query<{ numeric_precision: number; numeric_scale: number }>(
      `SELECT numeric_precision, numeric_scale FROM information_schema.columns WHERE table_name = 'campaigns' AND column_name = 'amount'`,
    );
    expect(rows[0]).to.deep.equal({ numeric_precision: 78, numeric_scale: 0 });
  });
});
