import { expect } from 'chai';
import { RETENTION_BATCH } from '../../../jobs/sweepRetention.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

describe('jobs/sweepRetention (retention): deletes what has outlived its use, keeps the rest', function () {
  let h: Harness;
  before(async function () {
    h = await createHarness({
      chainIds: [31337],
      env: { JOB_RUNS_RETENTION_DAYS: '7', CONFIG_STORE_UNASSOCIATED_TTL_DAYS: '3' },
    });
  });
  after(async () => h?.close());

  it('sweeps runs older than JOB_RUNS_RETENTION_DAYS, expired nonces, flows, revocations and windows, and records the counts', async function () {
    const pg = h.deps.pg;
    await pg.query(
      "INSERT INTO job_runs (job, status, started_at) VALUES ('blocks', 'success', now() - interval '8 days'), ('blocks', 'success', now() - interval '6 days')",
    );
    await pg.query(
      "INSERT INTO job_run_requests (job, requested_at) VALUES ('blocks', now() - interval '8 days'), ('blocks', now() - interval '6 days')",
    );
    await pg.query(
      `INSERT INTO auth_nonces (nonce, address, message, expires_at) VALUES ('old', '0xa', 'm', now() - interval '2 hours'), ('live', '0xa', 'm', now() + interval '5 minutes')`,
    );
    await pg.query(
      `INSERT INTO idp_flows (state, code_verifier, nonce, mode, expires_at) VALUES ('old', 'v', 'n', 'login', now() - interval '2 hours'), ('live', 'v', 'n', 'login', now() + interval '5 minutes')`,
    );
    await pg.query(
      `INSERT INTO revoked_tokens (jti, expires_at) VALUES ('gone', now() - interval '1 second'), ('still', now() + interval '1 day')`,
    );
    await pg.query(
      `INSERT INTO rate_limit_windows (bucket, window_start, count) VALUES ('ip:x', now() - interval '5 minutes', 3), ('ip:x', now(), 1)`,
    );
    await pg.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, delivered, duration_ms, created_at)
       VALUES (gen_random_uuid(), 1, 1, true, 5, now() - interval '8 days'), (gen_random_uuid(), 2, 1, true, 5, now())`,
    );
    await pg.query(
      "INSERT INTO tokens (id, chain_id, address, name, symbol, decimals) VALUES ('t-h', 31337, '0x01', 'H', 'H', 18)",
    );
    await pg.query(
      `INSERT INTO token_price_hourly (token_id, hour, open, close, min, max, source, updated_at)
       VALUES ('t-h', date_trunc('hour', now()) - interval '91 days', 1, 1, 1, 1, 'S', now()), ('t-h', date_trunc('hour', now()) - interval '89 days', 1, 1, 1, 1, 'S', now())`,
    );
    const run = await h.runJob('retention');
    expect(run.status).to.equal('success');
    const {
      rows: [recorded],
    } = await pg.query("SELECT counts FROM job_runs WHERE job = 'retention' ORDER BY id DESC LIMIT 1");
    expect(recorded.counts).to.deep.equal({
      jobRuns: 1,
      jobRunRequests: 1,
      events: 0,
      webhookDeliveries: 1,
      nonces: 1,
      idpFlows: 1,
      revokedTokens: 1,
      hourlyPrices: 1,
      rateLimitWindows: 1,
      unusedConfigs: 0,
    });
    const left = async (sql: string) => (await pg.query(sql)).rows.map((r) => Object.values(r)[0]);
    expect(
      await left("SELECT started_at > now() - interval '7 days' FROM job_runs WHERE job = 'blocks'"),
      'the 6-day-old run stays',
    ).to.deep.equal([true]);
    expect(
      await left("SELECT requested_at > now() - interval '7 days' FROM job_run_requests"),
      'run-now requests follow JOB_RUNS_RETENTION_DAYS',
    ).to.deep.equal([true]);
    expect(await left('SELECT nonce FROM auth_nonces')).to.deep.equal(['live']);
    expect(await left('SELECT state FROM idp_flows')).to.deep.equal(['live']);
    expect(await left('SELECT jti FROM revoked_tokens')).to.deep.equal(['still']);
    expect(await left('SELECT count(*)::int FROM rate_limit_windows')).to.deep.equal([1]);
    expect(
      await left('SELECT event_id::int FROM webhook_deliveries'),
      'WEBHOOK_DELIVERIES_RETENTION_DAYS',
    ).to.deep.equal([2]);
    expect(
      await left("SELECT hour > now() - interval '90 days' FROM token_price_hourly"),
      'hourly candles of the last 90 days stay',
    ).to.deep.equal([true]);
  });

  it('sweeps configurations no campaign uses, stored CONFIG_STORE_UNASSOCIATED_TTL_DAYS ago, and expired nonces, in batches; keeps the rest (#29 L2)', async function () {
    const pg = h.deps.pg;
    await pg.query('TRUNCATE campaign_configs, campaign_config_associations, auth_nonces');
    const hashOf = (label: string) => `0x${Buffer.from(label).toString('hex').padEnd(64, '0')}`;
    const store = (label: string, daysAgo: number) =>
      pg.query(
        `INSERT INTO campaign_configs (hash, config, size_bytes, stored_at, created_at)
         VALUES ($1, $2::jsonb, 10, now() - make_interval(days => $3), now() - make_interval(days => $3))`,
        [hashOf(label), JSON.stringify({ label }), daysAgo],
      );
    // Old and unused: more than two batches of them, after the old kept ones in key order.
    const unused = Array.from({ length: 2 * RETENTION_BATCH + 500 }, (_, i) => `unused-${i}`);
    for (let i = 0; i < unused.length; i += 500)
      await pg.query(
        `INSERT INTO campaign_configs (hash, config, size_bytes, stored_at)
         SELECT '0x' || rpad(encode(convert_to(l, 'UTF8'), 'hex'), 64, '0'), jsonb_build_object('label', l), 10, now() - interval '4 days'
         FROM unnest($1::text[]) l`,
        [unused.slice(i, i + 500)],
      );
    await store('associated', 30);
    await store('committed at creation', 30);
    await store('committed by an override', 30);
    await store('fresh', 2);
    await pg.query(
      "INSERT INTO campaign_config_associations (config_hash, distribution_chain_id, campaign_id, grounds) VALUES ($1, 31337, '0x01', NULL)",
      [hashOf('associated')],
    );
    const campaign = (id: string, data: string) =>
      pg.query(
        `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type,
           start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at)
         VALUES ($1, 31337, 31337, $1, '0xc', '0xt', 1, 1, 0, 1, $2, 1, '0xb', $1, 0, now())`,
        [id, data],
      );
    await campaign('0xcreated', hashOf('committed at creation').toUpperCase().replace('0X', '0x'));
    await campaign('0xoverridden', '0x1234');
    await pg.query(
      `INSERT INTO campaign_overrides (chain_id, campaign_db_id, campaign_id, campaign_type, compute_chain_id, start_timestamp, end_timestamp,
         campaign_data, opportunity_id, block_number, block_hash, tx_hash, log_index, timestamp)
       VALUES (31337, '0xoverridden', '0xoverridden', 1, 31337, 0, 1, $1, 'o', 2, '0xb2', '0xo', 0, 0)`,
      [hashOf('committed by an override')],
    );
    await pg.query(
      `INSERT INTO auth_nonces (nonce, address, message, expires_at)
       SELECT 'old-' || i, '0xa', 'm', now() - interval '2 hours' FROM generate_series(1, $1) i`,
      [RETENTION_BATCH + 10],
    );
    await pg.query(
      "INSERT INTO auth_nonces (nonce, address, message, expires_at) VALUES ('live', '0xa', 'm', now() + interval '5 minutes')",
    );

    const run = await h.runJob('retention');
    expect(run.status).to.equal('success');
    const {
      rows: [recorded],
    } = await pg.query("SELECT counts FROM job_runs WHERE job = 'retention' ORDER BY id DESC LIMIT 1");
    expect(recorded.counts).to.include({ unusedConfigs: unused.length, nonces: RETENTION_BATCH + 10 });
    const { rows: kept } = await pg.query<{ label: string }>(
      "SELECT config->>'label' AS label FROM campaign_configs ORDER BY 1",
    );
    expect(kept.map((r) => r.label)).to.deep.equal([
      'associated',
      'committed at creation',
      'committed by an override',
      'fresh',
    ]);
    expect((await pg.query('SELECT nonce FROM auth_nonces')).rows).to.deep.equal([{ nonce: 'live' }]);
  });

  it('skips, without waiting, an old unused configuration that a request is attaching meanwhile', async function () {
    const pg = h.deps.pg;
    await pg.query('TRUNCATE campaign_configs, campaign_config_associations');
    const hash = `0x${'ad'.repeat(32)}`;
    await pg.query(
      "INSERT INTO campaign_configs (hash, config, size_bytes, stored_at) VALUES ($1, '{}', 2, now() - interval '30 days')",
      [hash],
    );
    const attaching = await pg.connect();
    try {
      await attaching.query('BEGIN');
      await attaching.query('SELECT config FROM campaign_configs WHERE hash = $1 FOR KEY SHARE', [hash]);
      const run = await h.runJob('retention');
      expect(run.status).to.equal('success');
      expect(run.status === 'success' && run.result.counts['unusedConfigs']).to.equal(0);
      await attaching.query(
        "INSERT INTO campaign_config_associations (config_hash, distribution_chain_id, campaign_id, grounds) VALUES ($1, 31337, '0x02', 'creator')",
        [hash],
      );
      await attaching.query('COMMIT');
    } finally {
      attaching.release();
    }
    expect((await pg.query('SELECT hash FROM campaign_configs')).rows).to.deep.equal([{ hash }]);
  });

  it('refuses a retention outside 1..3650 days at startup, naming the variable', async function () {
    const { loadConfig } = await import('../../../internal/config.js');
    expect(() =>
      loadConfig({ NODE_ENV: 'test', JOB_RUNS_RETENTION_DAYS: '0', CHAINS: JSON.stringify(h.config.chains) }),
    ).to.throw(/JOB_RUNS_RETENTION_DAYS/);
  });
});
