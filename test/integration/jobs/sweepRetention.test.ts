import { expect } from 'chai';
import { createHarness, type Harness } from '../../helpers/harness.js';

describe('jobs/sweepRetention (retention): deletes what has outlived its use, keeps the rest', function () {
  let h: Harness;
  before(async function () {
    h = await createHarness({ chainIds: [31337], env: { JOB_RUNS_RETENTION_DAYS: '7' } });
  });
  after(async () => h?.close());

  it('sweeps runs older than JOB_RUNS_RETENTION_DAYS, expired nonces, flows, revocations and windows, and records the counts', async function () {
    const pg = h.deps.pg;
    await pg.query(
      "INSERT INTO job_runs (job, status, started_at) VALUES ('blocks', 'success', now() - interval '8 days'), ('blocks', 'success', now() - interval '6 days')",
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
    const run = await h.runJob('retention');
    expect(run.status).to.equal('success');
    const {
      rows: [recorded],
    } = await pg.query("SELECT counts FROM job_runs WHERE job = 'retention' ORDER BY id DESC LIMIT 1");
    expect(recorded.counts).to.deep.equal({
      jobRuns: 1,
      nonces: 1,
      idpFlows: 1,
      revokedTokens: 1,
      rateLimitWindows: 1,
    });
    const left = async (sql: string) => (await pg.query(sql)).rows.map((r) => Object.values(r)[0]);
    expect(
      await left("SELECT started_at > now() - interval '7 days' FROM job_runs WHERE job = 'blocks'"),
      'the 6-day-old run stays',
    ).to.deep.equal([true]);
    expect(await left('SELECT nonce FROM auth_nonces')).to.deep.equal(['live']);
    expect(await left('SELECT state FROM idp_flows')).to.deep.equal(['live']);
    expect(await left('SELECT jti FROM revoked_tokens')).to.deep.equal(['still']);
    expect(await left('SELECT count(*)::int FROM rate_limit_windows')).to.deep.equal([1]);
  });

  it('refuses a retention outside 1..3650 days at startup, naming the variable', async function () {
    const { loadConfig } = await import('../../../internal/config.js');
    expect(() =>
      loadConfig({ NODE_ENV: 'test', JOB_RUNS_RETENTION_DAYS: '0', CHAINS: JSON.stringify(h.config.chains) }),
    ).to.throw(/JOB_RUNS_RETENTION_DAYS/);
  });
});
