import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeEnvFile } from '../../../internal/envFile.js';
import { QUICK_START_ENV_HEADER, quickStartSettings } from '../../../scripts/quickStartSettings.js';
import { fileURLToPath } from 'node:url';
import { indexNames } from '../../../internal/es.js';
import type { JobListing } from '../../../domain/jobs/listJobs.js';
import { childProcessEnv } from '../../helpers/testConfig.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';
import { nodeArgs } from '../../helpers/compiledSources.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

type CliResult = { code: number | null; stdout: string; stderr: string };

describe('jobs/cli.ts as a real process', function () {
  let h: Harness;
  let ids: string[] = [];
  let blocks: number[] = [];

  /** Runs `jobs/cli.ts <args>` with the harness' configuration, like an operator would (`extra`: more variables). */
  function cli(...args: string[]): Promise<CliResult>;
  function cli(extra: Record<string, string>, ...args: string[]): Promise<CliResult>;
  async function cli(first: string | Record<string, string>, ...rest: string[]): Promise<CliResult> {
    const extra = typeof first === 'string' ? {} : first;
    const args = typeof first === 'string' ? [first, ...rest] : rest;
    const env = childProcessEnv(h.config, { INDEXER_MAX_LOG_RANGE: '2', ...extra }); // backfills take several batches, so the bar moves
    const child = spawn(process.execPath, await nodeArgs('jobs/cli.ts', ...args), {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
  }
  const list = async () => JSON.parse((await cli('list', '--json')).stdout) as JobListing[];
  const job = (listings: JobListing[], name: string) => listings.find((l) => l.name === name)!;
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await h.deps.pg.query<{ n: string }>(sql, params)).rows[0]!.n);

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    ({ ids, blocks } = await seedCampaigns({ chain: h.chains[0]!, perTx: 2, txs: 4 }));
    for (const name of ['blocks', 'campaigns']) expect((await h.runJob(name)).status, name).to.equal('success');
    await h.refresh();
  });

  after(async () => h?.close());

  it('list: prints every job with schedule, state, last run, lag per chain and errors (table and --json)', async function () {
    const table = await cli('list');
    expect(table.code, table.stderr).to.equal(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^JOB\s+SCHEDULE\s+STATE\s+LAST RUN\s+LAST SUCCESS\s+ERRORS 24H$/);
    expect(lines.find((l) => l.startsWith('campaigns '))).to.match(
      /\*\/5 \* \* \* \* \* \(default\)\s+active\s+success \S+Z \d+\.\d\ds\s+\S+Z\s+0\/1 runs/,
    );
    expect(lines).to.include(
      '  chain 31337: cursor ' +
        (await count(`SELECT block_number AS n FROM cursors WHERE job = 'campaigns'`)) +
        ', head ' +
        (await count(`SELECT block_number AS n FROM cursors WHERE job = 'blocks'`)) +
        ', lag 0 blocks, 0 s',
    );

    const campaigns = job(await list(), 'campaigns');
    expect(campaigns).to.deep.include({
      state: 'active',
      schedule: '*/5 * * * * *',
      scheduleSource: 'default',
      errors24h: 0,
      runs24h: 1,
    });
    expect(campaigns.lastRun!.status).to.equal('success');
    expect(campaigns.chains).to.have.length(1);
    expect(campaigns.chains[0]!.lagBlocks).to.equal(0);
  });

  it('pause and resume: persisted in job_state, shown by list, honoured by runJob', async function () {
    const paused = await cli('pause', 'campaigns');
    expect(paused.code, paused.stderr).to.equal(0);
    expect(paused.stdout).to.match(/^campaigns: paused since /);
    expect(job(await list(), 'campaigns').state).to.equal('paused');
    expect(await h.runJob('campaigns')).to.deep.equal({ status: 'skipped', reason: 'paused' });
    const forced = await cli('run', 'campaigns');
    expect(forced.code, forced.stderr).to.equal(0);
    expect(forced.stdout).not.to.include('skipped');
    expect(forced.stdout.trim()).to.match(
      /^campaigns: success in \d+(\.\d+)? m?s \(run \d+\) · counts: .+ · ranges: (31337 \d+–\d+|none)$/,
    );
    const {
      rows: [recorded],
    } = await h.deps.pg.query<{ trigger: string }>(
      `SELECT trigger FROM job_runs WHERE job = 'campaigns' ORDER BY id DESC LIMIT 1`,
    );
    expect(recorded!.trigger, 'a command-line run is recorded as such').to.equal('cli');
    const publish = await cli('run', 'publish');
    expect(publish.code, publish.stderr).to.equal(0);
    expect(publish.stdout.trim(), 'jobs:run -- publish prints its run').to.match(
      /^publish: success in .+ · counts: .+ · ranges: .+$/,
    );

    const resumed = await cli('resume', 'campaigns');
    expect(resumed.code, resumed.stderr).to.equal(0);
    expect(job(await list(), 'campaigns').state).to.equal('active');
    expect((await h.runJob('campaigns')).status).to.equal('success');
  });

  it('schedule: validates, persists an override and removes it with "default"', async function () {
    const set = await cli('schedule', 'publish', '*/7 * * * * *');
    expect(set.code, set.stderr).to.equal(0);
    expect(job(await list(), 'publish')).to.deep.include({ schedule: '*/7 * * * * *', scheduleSource: 'job_state' });
    const bad = await cli('schedule', 'publish', 'whenever');
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('"whenever" is not a valid cron expression');
    expect((await cli('schedule', 'publish', 'default')).code).to.equal(0);
    expect(job(await list(), 'publish')).to.deep.include({ schedule: '*/2 * * * * *', scheduleSource: 'default' });
  });

  it('run: a job with nothing configured says skipped and why, exit 0, recorded as skipped (#44)', async function () {
    const res = await cli('run', 'benchmark-rate');
    expect(res.code, res.stderr).to.equal(0);
    expect(res.stdout.split('\n').find((l) => l.startsWith('benchmark-rate:'))).to.match(
      /^benchmark-rate: skipped in \d+ ms \(run \d+\): BENCHMARK_RATE_URL is not set: no benchmark rate source/,
    );
    const run = job(await list(), 'benchmark-rate').lastRun!;
    expect(run).to.deep.include({ status: 'skipped' });
    expect(run.skipReason).to.match(/^BENCHMARK_RATE_URL is not set/);
  });

  it('run: reads the settings the quick start wrote (its env file) under its own environment (#44)', async function () {
    const rates = createServer(
      (_req, res) =>
        void res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            refRates: [
              { effectiveDate: '2026-11-26', type: 'SOFR', percentRate: 4.3 },
              { effectiveDate: '2026-11-27', type: 'SOFR', percentRate: 4.31 },
            ],
          }),
        ),
    );
    await new Promise<void>((resolve) => rates.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'quickstart-env-'));
    try {
      const file = join(dir, 'quickstart.env');
      // What scripts/dev.ts writes: the configuration variables of its own process (secrets, price API, …).
      const settings = quickStartSettings({
        BENCHMARK_RATE_URL: `http://127.0.0.1:${(rates.address() as AddressInfo).port}/rates`,
        LOG_LEVEL: 'silent',
        PATH: '/not/a/config/variable',
      });
      expect(Object.keys(settings).sort()).to.deep.equal(['BENCHMARK_RATE_URL', 'LOG_LEVEL']);
      writeEnvFile(file, settings, QUICK_START_ENV_HEADER);
      expect(statSync(file).mode & 0o777, 'it may hold secrets').to.equal(0o600);
      const res = await cli({ ENV_FILE: file }, 'run', 'benchmark-rate');
      expect(res.code, res.stderr).to.equal(0);
      expect(res.stdout.split('\n').find((l) => l.startsWith('benchmark-rate:'))).to.match(
        /^benchmark-rate: success in .* counts: days 2/,
      );
      expect(await count(`SELECT count(*) AS n FROM benchmark_rates WHERE day >= '2026-11-26'`)).to.equal(2);
      // The process's own environment wins over the file.
      const own = await cli(
        { ENV_FILE: file, BENCHMARK_RATE_URL: 'http://127.0.0.1:1/unreachable' },
        'run',
        'benchmark-rate',
      );
      expect(own.code).to.equal(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await new Promise((resolve) => rates.close(resolve));
    }
  });

  it('answers bad usage with exit code 2 and the usage', async function () {
    for (const args of [['pause', 'nope'], ['frobnicate'], ['reindex', 'tokens'], ['backfill', '31337']]) {
      const result = await cli(...args);
      expect(result.code, args.join(' ')).to.equal(2);
      expect(result.stderr, args.join(' ')).to.include('usage: jobs/cli.ts');
    }
  });

  it("run --chain: runs that chain's unit only, recorded with its chain; refuses a chain not configured or a chain-less job", async function () {
    const result = await cli('run', 'blocks', '--chain', '31337');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.include('blocks (chain 31337)');
    const { rows } = await h.deps.pg.query<{ chain_id: number; trigger: string }>(
      `SELECT chain_id, trigger FROM job_runs WHERE job = 'blocks' ORDER BY started_at DESC LIMIT 1`,
    );
    expect(rows).to.deep.equal([{ chain_id: 31337, trigger: 'cli' }]);
    for (const [args, message] of [
      [['run', 'blocks', '--chain', '4242'], 'chain 4242 is not configured'],
      [['run', 'blocks', '--chain'], '--chain needs a chain id'],
      [['run', 'prices', '--chain', '31337'], 'prices is not run per chain'],
    ] as const) {
      const refused = await cli(...args);
      expect(refused.code, args.join(' ')).to.equal(2);
      expect(refused.stderr, args.join(' ')).to.include(message);
    }
  });

  it('check: exit code 0 when consistent, 1 with the difference named when not', async function () {
    const ok = await cli('check');
    expect(ok.code, ok.stdout + ok.stderr).to.equal(0);
    expect(ok.stdout).to.include('OK: PostgreSQL and Elasticsearch agree');
    await h.deps.es.delete({
      index: indexNames(h.config.esIndexPrefix, 'campaigns').write,
      id: ids[0]!,
      refresh: true,
    });
    const broken = await cli('check');
    expect(broken.code).to.equal(1);
    expect(broken.stdout).to.include(`missing in Elasticsearch: ${ids[0]}`);
    const json = await cli('check', '--json');
    expect(json.code).to.equal(1);
    expect(JSON.parse(json.stdout).families[0].missing).to.deep.equal({ count: 1, ids: [ids[0]] });
  });

  it('reindex: rebuilds a family into a new index behind the aliases, with progress, and makes check pass again', async function () {
    const result = await cli('reindex', 'all');
    expect(result.code, result.stderr).to.equal(0);
    const prefix = h.config.esIndexPrefix;
    expect(result.stdout).to.include(`campaigns: ${prefix}-campaigns_v2_r1 built from 8 rows (8 documents)`);
    expect(result.stdout).to.include(`opportunities: ${prefix}-opportunities_v2_r1 built from 2 rows (2 documents)`);
    expect(result.stderr).to.match(/reindex campaigns\s+100\.0% 8\/8 rows/);
    expect(result.stdout).to.match(/"msg":"progress".*"unit":"rows","done":8,"total":8,"rate_per_s":[\d.]+,"eta_s":0/);
    expect(Object.keys(await h.deps.es.indices.getAlias({ name: indexNames(prefix, 'campaigns').read }))).to.deep.equal(
      [`${prefix}-campaigns_v2_r1`],
    );
    expect((await cli('check')).code).to.equal(0);
  });

  it('backfill-reward-tokens: stores the whitelist logs the campaigns job passed before the table existed, announcing nothing again', async function () {
    const whitelist = async () =>
      (
        await h.deps.pg.query(
          `SELECT chain_id, token, amount::text, block_number::int, block_hash, tx_hash, log_index
           FROM reward_token_min_amounts ORDER BY chain_id, block_number, log_index`,
        )
      ).rows;
    const before = await whitelist();
    expect(before, 'the devnet stack whitelists its reward tokens').to.not.be.empty;
    const events = await count('SELECT count(*) AS n FROM events');
    // A deployment indexed before the table existed: the campaigns job is past these logs.
    await h.deps.pg.query('DELETE FROM reward_token_min_amounts');
    const result = await cli('backfill-reward-tokens');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.match(
      new RegExp(`chain 31337: ${before.length} whitelist log\\(s\\) stored from block \\d+`),
    );
    expect(result.stderr).to.match(/^backfill-reward-tokens chain 31337 +100\.0% \d+\/\d+ blocks/m);
    expect(await whitelist()).to.deep.equal(before);
    expect(await count('SELECT count(*) AS n FROM events'), 'no event appended').to.equal(events);
    const again = await cli('backfill-reward-tokens', '31337');
    expect(again.code, again.stderr).to.equal(0);
    expect(await whitelist(), 'a re-run changes nothing').to.deep.equal(before);
    const unknown = await cli('backfill-reward-tokens', '999');
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.include('"999" is not a configured chain id');
  });

  it("backfill: re-indexes rows deleted behind the job's back from a block, with a progress bar on stderr", async function () {
    const from = blocks[2]!;
    await h.deps.pg.query('DELETE FROM campaigns WHERE block_number >= $1', [from]);
    expect(await count('SELECT count(*) AS n FROM campaigns')).to.equal(4);
    const result = await cli('backfill', '31337', String(from), '--jobs', 'campaigns');
    expect(result.code, result.stderr).to.equal(0);
    expect(await count('SELECT count(*) AS n FROM campaigns')).to.equal(8);
    expect(result.stdout).to.include(`campaigns: chain 31337 cursor moved back to ${from - 1}`);
    expect(result.stdout).to.match(/backfill chain 31337: campaigns caught up to block \d+/);
    expect(result.stderr).to.match(/^backfill chain 31337 +100\.0% \d+\/\d+ blocks/m); // not a TTY: plain lines
    expect((await cli('check')).code).to.equal(0);
  });

  it('backfill of blocks: rolls the chain back from the block and re-indexes headers and every job', async function () {
    const from = blocks[1]!;
    const headersBefore = await count('SELECT count(*) AS n FROM blocks');
    const result = await cli('backfill', '31337', String(from), '--jobs', 'blocks');
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.include(`chain 31337: rolled back to block ${from - 1}`);
    expect(result.stdout).to.match(/backfill chain 31337: blocks, campaigns caught up/);
    const head = await count(`SELECT block_number AS n FROM cursors WHERE job = 'blocks'`);
    expect(await count('SELECT count(*) AS n FROM blocks'))
      .to.equal(head + 1)
      .and.to.be.at.least(headersBefore);
    expect(await count('SELECT count(*) AS n FROM campaigns')).to.equal(8);
    expect((await h.runJob('publish')).status).to.equal('success');
    expect((await cli('check')).code).to.equal(0);
  });
});
