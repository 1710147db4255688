import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { createLogger } from '../../../internal/logger.js';
import { migrate } from '../../../sql/migrate.js';
import { resetDatabase } from '../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../helpers/testConfig.js';

const logger = createLogger({ level: 'silent', name: 'test' });
// Names carry a two-digit same-day counter, so a plain sort is the order the runner applies them in.
const files = readdirSync(new URL('../../../sql/migrations/', import.meta.url))
  .filter((f) => f.endsWith('.sql'))
  .sort();

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

  it('every migration name has a two-digit same-day counter', function () {
    expect(files.filter((f) => !/^\d{4}_\d{2}_\d{2}_\d{2}_[a-z0-9_]+\.sql$/.test(f))).to.deep.equal([]);
  });

  it('renames a ledger written under the unpadded names (…_4_…) and applies nothing again', async function () {
    await client.query(
      `UPDATE schema_migrations SET name = regexp_replace(name, '^(\\d{4}_\\d{2}_\\d{2})_0(\\d)_', '\\1_\\2_')`,
    );
    const { rows: before } = await client.query<{ name: string }>(
      "SELECT name FROM schema_migrations WHERE name LIKE '2026\\_11\\_21\\_4\\_%'",
    );
    expect(before).to.have.length(1);
    expect(await migrate({ databaseUrl: TEST_DATABASE_URL, logger })).to.deep.equal([]);
    const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY id');
    expect(rows.map((r) => `${r.name}.sql`)).to.deep.equal(files);
  });

  it('stores uint256 amounts as numeric(78,0)', async function () {
    const { rows } = await client.query<{ numeric_precision: number; numeric_scale: number }>(
      `SELECT numeric_precision, numeric_scale FROM information_schema.columns WHERE table_name = 'campaigns' AND column_name = 'amount'`,
    );
    expect(rows[0]).to.deep.equal({ numeric_precision: 78, numeric_scale: 0 });
  });
});
