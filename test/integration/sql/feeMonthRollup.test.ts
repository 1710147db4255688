import { expect } from 'chai';
import { loadRevenues, type RevenueFilter } from '../../../api/routes/accounting/repo.js';
import { rollbackChain } from '../../../indexer/store/rollback.js';
import { createPgPool, withTransaction, type PgPool } from '../../../internal/pg.js';
import { resetDatabase } from '../../helpers/database.js';
import { TEST_DATABASE_URL } from '../../helpers/testConfig.js';
import { migrationPart, rowsRebuiltByBackfill } from '../../helpers/migrationBackfill.js';

const [C1, C2] = [31337, 10];
const [T6, T18, UNKNOWN] = [`0x${'06'.repeat(20)}`, `0x${'18'.repeat(20)}`, `0x${'99'.repeat(20)}`];

/**
 * The groups as the route computed them before campaign_fee_months (one GROUP BY over the campaigns
 * themselves, 2026_12_01_33_campaign_fee_usd.sql): the truth the kept groups must equal.
 */
async function recomputed(db: PgPool, f: RevenueFilter) {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (f.chainId !== undefined) clauses.push(`c.distribution_chain_id = $${params.push(f.chainId)}`);
  if (f.tokenAddress !== undefined) clauses.push(`c.reward_token = $${params.push(f.tokenAddress.toLowerCase())}`);
  if (f.year !== undefined && f.month !== undefined) {
    const [y, m] = [params.push(f.year), params.push(f.month)];
    clauses.push(
      `c.created_at >= make_timestamptz($${y}, $${m}, 1, 0, 0, 0, 'UTC') AND c.created_at < make_timestamptz($${y}, $${m}, 1, 0, 0, 0, 'UTC') + interval '1 month'`,
    );
  }
  const { rows } = await db.query(
    `SELECT g.month, g.chain_id, g.token, t.symbol, t.decimals, g.amount, g.amount_usd, g.campaigns, g.pending, g.unpriced
     FROM (
       SELECT to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, c.distribution_chain_id AS chain_id, c.reward_token AS token,
         COALESCE(sum(c.fee_amount), 0)::text AS amount, sum(c.fee_usd)::float8 AS amount_usd,
         count(*) FILTER (WHERE c.fee_amount IS NOT NULL)::int AS campaigns, count(*) FILTER (WHERE c.fee_amount IS NULL)::int AS pending,
         count(*) FILTER (WHERE c.fee_amount > 0 AND c.fee_usd IS NULL)::int AS unpriced
       FROM campaigns c ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''} GROUP BY 1, 2, 3) g
     LEFT JOIN tokens t ON t.chain_id = g.chain_id AND t.address = g.token ORDER BY 1, 2, 3`,
    params,
  );
  return rows;
}

const FILTERS: RevenueFilter[] = [
  {},
  { chainId: C1 },
  { chainId: C2 },
  { tokenAddress: T6.toUpperCase().replace('0X', '0x') },
  { chainId: C1, tokenAddress: T18 },
  { year: 2026, month: 3 },
  { year: 2026, month: 4 },
  { chainId: C1, year: 2026, month: 3 },
  { chainId: C2, tokenAddress: T6, year: 2026, month: 4 },
  { year: 2025, month: 1 },
];

describe('campaign_fee_months: fee revenue groups kept by the campaigns’ triggers (#33, GET /v4/accounting/revenues)', function () {
  let db: PgPool;
  let n = 0;
  const campaign = async (chain: number, token: string, created: string, fee: string | null, block = 10) => {
    n += 1;
    await db.query(
      `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type,
         start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at, fee_amount)
       VALUES ($1, $2, $2, $3, '0xc', $4, 100, 1, 0, 1, '0x', $5, '0xb', '0xt', $6, $7, $8)`,
      [`${chain}-0x${n}`, chain, `0x${n}`, token, block, n, created, fee],
    );
    return `${chain}-0x${n}`;
  };
  const price = (chain: number, token: string, day: string, close: number) =>
    db.query(
      `INSERT INTO token_price_history (token_id, day, open, close, min, max, source, updated_at) VALUES ($1, $2, $3, $3, $3, $3, 'test', now())
       ON CONFLICT (token_id, day) DO UPDATE SET close = EXCLUDED.close`,
      [`${chain}-${token}`, day, close],
    );
  const expectSame = async (what: string) => {
    for (const f of FILTERS)
      expect(await loadRevenues(db, f), `${what}: ${JSON.stringify(f)}`).to.deep.equal(await recomputed(db, f));
  };

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    db = createPgPool({ connectionString: TEST_DATABASE_URL, applicationName: 'test-fee-months' });
    for (const chain of [C1, C2])
      for (const [token, decimals] of [
        [T6, 6],
        [T18, 18],
      ] as const)
        await db.query(
          `INSERT INTO tokens (id, chain_id, address, name, symbol, decimals, verified) VALUES ($1, $2, $3, 'T', 'T', $4, true)`,
          [`${chain}-${token}`, chain, token, decimals],
        );
    await price(C1, T6, '2026-02-20', 1.25);
    await price(C2, T6, '2026-03-01', 0.3);
    await price(C1, T18, '2026-03-31', 1 / 3);
  });
  after(async () => db?.end());

  it('groups campaigns as they are indexed: month boundaries in UTC, fees pending, zero, unpriced and of unknown tokens', async function () {
    await campaign(C1, T6, '2026-03-31T23:59:59Z', '1000001');
    await campaign(C1, T6, '2026-04-01T00:00:00Z', '2500000');
    await campaign(C1, T6, '2026-03-10T00:00:00+02:00', null); // 2026-03-09 in UTC
    await campaign(C1, T18, '2026-03-31T12:00:00Z', '123456789012345678901');
    await campaign(C1, T18, '2026-03-30T12:00:00Z', '5'); // before its token's first price
    await campaign(C2, T6, '2026-04-15T00:00:00Z', '0');
    await campaign(C2, T6, '2026-04-16T00:00:00Z', '777777', 30);
    await campaign(C2, UNKNOWN, '2026-04-16T00:00:00Z', '9', 31);
    // Several in one statement, as the campaigns job writes them (an upsert replaying one of them).
    await db.query(
      `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type,
         start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at, fee_amount)
       SELECT $1::int || '-0xb' || g, $1::int, $1::int, '0xb' || g, '0xc', $2, 100, 1, 0, 1, '0x', 40, '0xb', '0xt', g, '2026-03-05T00:00:00Z', g * 1000
       FROM generate_series(1, 5) g
       ON CONFLICT (id) DO UPDATE SET fee_amount = EXCLUDED.fee_amount`,
      [C2, T6],
    );
    await expectSame('indexed');
    expect((await loadRevenues(db, {})).length).to.be.greaterThan(5);
  });

  it('follows fees read later, upserts, late and corrected prices, decimals and moved creation times or tokens', async function () {
    await db.query(`UPDATE campaigns SET fee_amount = 42 WHERE fee_amount IS NULL`);
    await expectSame('fee read');
    await db.query(
      `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type,
         start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at, fee_amount)
       SELECT $1::int || '-0xb' || g, $1::int, $1::int, '0xb' || g, '0xc', $2, 100, 1, 0, 1, '0x', 40, '0xb', '0xt', g, '2026-03-05T00:00:00Z', g * 7
       FROM generate_series(4, 7) g
       ON CONFLICT (id) DO UPDATE SET fee_amount = EXCLUDED.fee_amount`,
      [C2, T6],
    );
    await expectSame('upsert of new and replayed campaigns');
    await price(C1, T18, '2026-03-01', 2); // a late price: the campaign left unpriced gets one
    await expectSame('late price');
    await price(C1, T6, '2026-03-31', 1.75); // a closer close for the last day of March
    await price(C1, T6, '2026-03-31', 1.8); // corrected
    await expectSame('corrected price');
    await db.query(`DELETE FROM token_price_history WHERE token_id = $1 AND day = '2026-02-20'`, [`${C1}-${T6}`]);
    await expectSame('price removed');
    await db.query('UPDATE tokens SET decimals = 8 WHERE id = $1', [`${C2}-${T6}`]);
    await expectSame('decimals changed');
    await db.query(
      `UPDATE campaigns SET created_at = created_at - interval '20 days' WHERE distribution_chain_id = $1`,
      [C2],
    );
    await db.query(`UPDATE campaigns SET reward_token = $1 WHERE reward_token = $2`, [T18, UNKNOWN]);
    await expectSame('moved');
    await db.query(`UPDATE campaigns SET amount = 200, fee_amount = NULL WHERE id = $1`, [`${C1}-0x1`]);
    await expectSame('fee unread again');
  });

  it('takes back the campaigns a reorg rollback deletes, down to empty groups', async function () {
    await withTransaction(db, (tx) => rollbackChain(tx, C2, 30));
    await expectSame('rolled back above 30');
    await withTransaction(db, (tx) => rollbackChain(tx, C2, 0));
    await expectSame('chain 10 rolled back whole');
    expect((await loadRevenues(db, { chainId: C2 })).length).to.equal(0);
  });

  it('is rebuilt by the migration as the triggers left it, and emptied with the campaigns', async function () {
    const { ingested: kept, rebuilt } = await rowsRebuiltByBackfill(db, {
      clear: 'DELETE FROM campaign_fee_months',
      backfill: migrationPart(
        '2026_12_03_07_fee_months_token_lookup.sql',
        'INSERT INTO campaign_fee_months',
        '-- Adds the rows',
      ),
      rows: async (client) =>
        (
          await client.query(
            `SELECT month::text, chain_id, token, campaigns, fee_read, priced, unpriced, amount::text, amount_usd::float8
             FROM campaign_fee_months WHERE campaigns > 0 ORDER BY 1, 2, 3`,
          )
        ).rows,
    });
    expect(rebuilt).to.deep.equal(kept);
    await db.query('TRUNCATE campaigns CASCADE');
    expect((await db.query('SELECT count(*)::int AS n FROM campaign_fee_months')).rows[0].n).to.equal(0);
    await expectSame('truncated');
  });
});
