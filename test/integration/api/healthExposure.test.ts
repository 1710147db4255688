import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { createApp } from '../../../api/app.js';
import type { ApiDeps } from '../../../api/deps.js';
import { findFreePort } from '../../../contracts/devnet.js';
import { createJobDeps } from '../../../jobs/deps.js';
import { findJob, JOBS } from '../../../jobs/registry.js';
import { startRunRequestWorker, type RunRequestWorker } from '../../../jobs/runRequestWorker.js';
import { runJob } from '../../../jobs/runJob.js';
import type { ChainConfig, Config } from '../../../internal/config.js';
import { createLogger } from '../../../internal/logger.js';
import { createPgPool, type PgPool } from '../../../internal/pg.js';
import { deleteIndices, ensureIndices } from '../../../search-mappings/aliases.js';
import { resetDatabase } from '../../helpers/database.js';
import { TEST_BACK_OFFICE_TOKEN, testConfig, uniqueIndexPrefix } from '../../helpers/testConfig.js';

/** Every secret the RPC URLs carry, and the request body viem prints; none may leave the process. */
const SECRETS = /SECRETKEY|SECRET2|DEADSECRET|SECRET3|apikey=|eth_blockNumber|\/v2\/|\/v3\//;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the start of the next wall-clock second, so a burst lands in one fixed window. */
async function nextSecond(): Promise<void> {
  await sleep(1000 - (Date.now() % 1000) + 5);
}

/** A chain whose RPC URL is `rpcUrl` (the config loader fills the other fields with its defaults). */
function chainAt(id: number, rpcUrl: string): ChainConfig {
  const contract = `0x${'1'.repeat(40)}`;
  return {
    id,
    name: `Secret chain ${id}`,
    rpcUrl,
    distributionCreator: contract,
    distributor: contract,
  } as ChainConfig;
}

describe('/v4/health: no secrets out, one computation per second, rate-limited (M3 of #29)', function () {
  let failing: Server;
  let rpcRequests = 0;
  let config: Config;
  let deps: ReturnType<typeof createJobDeps>;
  let apiPg: PgPool;
  let pgQueries = 0;
  let app: ReturnType<typeof supertest>;
  let runner: RunRequestWorker | undefined;
  const logLines: string[] = [];
  const bo = { authorization: TEST_BACK_OFFICE_TOKEN };
  /** An app of its own (its own health cache and rate-limit counters) on this suite's failing nodes. */
  const appWith = (overrides: Partial<ApiDeps> = {}) =>
    supertest(
      createApp({
        config,
        logger: deps.logger,
        pg: apiPg,
        es: deps.es,
        rpc: deps.rpc,
        jobsPg: deps.pg,
        ...overrides,
      }).callback(),
    );

  before(async function () {
    // A provider-style URL (key in the path and the query) on a node answering 500, and one on a closed port.
    failing = createServer((req, res) => {
      rpcRequests += 1;
      req.resume();
      req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error'));
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/v2/SECRETKEY?apikey=SECRET2`;
    const deadUrl = `http://127.0.0.1:${await findFreePort()}/v3/DEADSECRET?key=SECRET3`;
    const prefix = uniqueIndexPrefix();
    config = testConfig({ chains: [chainAt(31337, failingUrl), chainAt(31338, deadUrl)], esIndexPrefix: prefix });
    await resetDatabase(config.databaseUrl);
    const logger = createLogger({ level: 'info', name: 'test', destination: { write: (l) => void logLines.push(l) } });
    deps = createJobDeps(config, logger, new AbortController().signal);
    await ensureIndices({ es: deps.es, prefix, logger });
    apiPg = createPgPool({ connectionString: config.databaseUrl, applicationName: 'test-api', readOnly: true });
    // Counts the API's queries on its real pool (what a health computation costs).
    const query = apiPg.query.bind(apiPg) as (...args: unknown[]) => unknown;
    apiPg.query = ((...args: unknown[]) => ((pgQueries += 1), query(...args))) as typeof apiPg.query;
    app = appWith();
    // The job runner that takes POST /v4/internal/jobs/{name}/run (as the scheduler does), on the failing nodes.
    runner = startRunRequestWorker({ deps, jobs: JOBS });
    await runner.ready;
    // A row stored before redaction existed: raw viem text, served redacted all the same.
    await deps.pg.query(
      `INSERT INTO job_runs (job, status, trigger, chain_id, runner, started_at, finished_at, error)
       VALUES ('blocks', 'failed', 'schedule', 31337, 'old:1', now() - interval '1 hour', now() - interval '1 hour', $1)`,
      [`HTTP request failed.\n\nURL: ${failingUrl}\nRequest body: {"method":"eth_blockNumber"}`],
    );
  });

  after(async () => {
    await runner?.stop();
    await deleteIndices({ es: deps.es, prefix: config.esIndexPrefix }).catch(() => {});
    await Promise.allSettled([apiPg?.end(), deps?.close()]);
    failing?.closeAllConnections();
    await new Promise((resolve) => failing?.close(resolve));
  });

  it('keeps the RPC URLs (key in path and query) and request bodies out of health, job_runs, /v4/internal/jobs and logs', async function () {
    const blocks = findJob('blocks')!;
    for (const chainId of [31337, 31338])
      await runJob(blocks, deps, { chainId }).then(
        () => expect.fail('the blocks job ran against a failing node'),
        () => undefined,
      );
    const runNow = await app.post('/v4/internal/jobs/blocks/run').set(bo).expect(200);
    expect(runNow.body.status).to.equal('failed');

    const health = await app.get('/v4/health').expect(503);
    const jobs = await app.get('/v4/internal/jobs').query({ runs: 10 }).set(bo).expect(200);
    const stored = (
      await deps.pg.query<{ error: string }>(
        "SELECT error FROM job_runs WHERE error IS NOT NULL AND runner <> 'old:1'", // not the row stored raw on purpose
      )
    ).rows;
    expect(stored.length, 'failed runs stored').to.be.at.least(3);
    const exposed = {
      health: JSON.stringify(health.body),
      runNow: JSON.stringify(runNow.body),
      internalJobs: JSON.stringify(jobs.body),
      storedRuns: JSON.stringify(stored),
      logs: logLines.join(''),
    };
    for (const [where, text] of Object.entries(exposed)) expect(text, where).not.to.match(SECRETS);

    // What stays tells an operator what failed and where.
    const [failingChain, deadChain] = health.body.chains as { rpc: { ok: boolean; error: string } }[];
    const failingOrigin = new URL(config.chains[0]!.rpcUrl).origin;
    expect(failingChain!.rpc.error).to.include('HTTP request failed.');
    expect(failingChain!.rpc.error).to.include('Status: 500');
    expect(failingChain!.rpc.error).to.include(`URL: ${failingOrigin}/[redacted]`);
    expect(deadChain!.rpc.ok).to.equal(false);
    const blocksRuns = (jobs.body.jobs as { name: string; recentRuns: { error: string | null }[] }[]).find(
      (j) => j.name === 'blocks',
    )!.recentRuns;
    expect(blocksRuns.map((r) => r.error).join('\n')).to.include(`URL: ${failingOrigin}/[redacted]`);
    expect(blocksRuns.at(-1)!.error, 'the row written before redaction, read back').to.equal(
      `HTTP request failed.\n\nURL: ${failingOrigin}/[redacted]\nRequest body: [redacted]`,
    );
  });

  it('computes health once for any number of concurrent callers, and at most once per second after', async function () {
    (rpcRequests = 0), (pgQueries = 0);
    const single = await appWith().get('/v4/health').expect(503);
    const perComputation = { rpc: rpcRequests, pg: pgQueries };
    expect(perComputation.rpc, 'RPC requests of one computation').to.be.above(0);
    expect(perComputation.pg, 'PostgreSQL queries of one computation').to.be.above(0);

    (rpcRequests = 0), (pgQueries = 0);
    const fresh = appWith();
    const burst = await Promise.all(Array.from({ length: 100 }, () => fresh.get('/v4/health')));
    const afterBurst = { rpc: rpcRequests, pg: pgQueries };

    // Time is the subject: an app on a clock the test moves (deps.now, seconds; health reads nothing else
    // of it), called every 50 ms of that clock for 2.5 s: one computation at 0, 1 and 2 s.
    let clock = Math.floor(Date.now() / 1000);
    const clocked = appWith({ now: () => clock });
    (rpcRequests = 0), (pgQueries = 0);
    const checkedAts = new Set<string>();
    for (let step = 0; step < 50; step++, clock += 0.05) {
      checkedAts.add((await clocked.get('/v4/health')).body.checkedAt);
    }
    console.log(
      `      one computation: ${perComputation.rpc} RPC requests, ${perComputation.pg} PostgreSQL queries; 100 concurrent calls: ${afterBurst.rpc} RPC, ${afterBurst.pg} PostgreSQL; 50 calls over 2.5 s of the app's clock: ${checkedAts.size} computations, ${rpcRequests} RPC, ${pgQueries} PostgreSQL`,
    );
    expect(new Set(burst.map((r) => r.status))).to.deep.equal(new Set([503]));
    expect(new Set(burst.map((r) => r.body.checkedAt)).size, 'one answer for the burst').to.equal(1);
    expect(burst[0]!.body.checkedAt).not.to.equal(single.body.checkedAt);
    expect(afterBurst, '100 concurrent calls cost one computation').to.deep.equal(perComputation);
    expect(checkedAts.size, 'computations in 2.5 s of calls every 50 ms').to.equal(3);
    expect({ rpc: rpcRequests, pg: pgQueries }).to.deep.equal({
      rpc: 3 * perComputation.rpc,
      pg: 3 * perComputation.pg,
    });
  });

  it('answers 429 past the anonymous limit like any route, while liveness and readiness stay unlimited', async function () {
    const limited = appWith({ config: { ...config, rateLimits: { anonymous: 3, tiers: [5, 5, 5] } } as Config });
    await nextSecond();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await limited.get('/v4/health')).status);
    expect(statuses).to.deep.equal([503, 503, 503, 429, 429]);
    for (let i = 0; i < 5; i++) {
      await limited.get('/v4/health/live').expect(200);
      expect((await limited.get('/v4/health/ready')).status).to.equal(200);
    }
  });
});
