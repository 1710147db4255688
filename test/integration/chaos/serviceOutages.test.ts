import { expect } from 'chai';
import { startApiServer, type ApiServer } from '../../../api/server.js';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { checkConsistency } from '../../../indexer/project/consistency.js';
import { outboxDepth } from '../../../domain/tables/outbox.js';
import { createLogger } from '../../../internal/logger.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { startPrivateServices, type PrivateServices } from '../../helpers/privateServices.js';
import { percentileMs, startRequestLoad, type LoadSample } from '../../helpers/requestLoad.js';
import { eventually } from '../../helpers/eventually.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ES_READS = [
  '/v4/opportunities?items=10',
  '/v4/campaigns?items=10',
  '/v4/opportunities/count',
  '/v4/opportunities/bins/tvl',
  '/v4/campaigns?chainId=31337&status=LIVE',
];

describe('chaos: Elasticsearch and PostgreSQL stopped under load (private instances)', function () {
  let services: PrivateServices;
  let h: Harness;
  let api: ApiServer;
  let created = 0;

  /** One write cycle: a campaign on chain, then the blocks and campaigns jobs write it to PostgreSQL (and its outbox entries). */
  const writeCycle = async () => {
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    await createCampaigns({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [
        {
          rewardToken: stack.tokens.rewards[0]!.address,
          amount: 10n ** 18n,
          campaignType: 1,
          startTimestamp: now - 60 + created,
          duration: 7 * 86_400,
          campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[created % 2]!.address }),
        },
      ],
    });
    created += 1;
    for (const job of ['blocks', 'campaigns']) await h.runJob(job).catch(() => {}); // the campaigns run fails at its publish step while ES is down (recorded in job_runs)
  };
  const pgCampaigns = async () =>
    Number((await h.deps.pg.query<{ n: string }>('SELECT count(*) AS n FROM campaigns')).rows[0]!.n);

  before(async function () {
    this.timeout(600_000);
    services = await startPrivateServices();
    h = await createHarness({
      chainIds: [31337],
      env: {
        DATABASE_URL: services.databaseUrl,
        ES_URL: services.esUrl,
        HOST: '127.0.0.1',
        PORT: '0',
        ES_REQUEST_TIMEOUT_MS: '2000',
      },
    });
    for (let i = 0; i < 4; i++) await writeCycle();
    expect((await h.runJob('publish')).status).to.equal('success');
    api = await startApiServer({ config: h.config, logger: createLogger({ level: 'silent', name: 'chaos-api' }) });
  });

  after(async function () {
    this.timeout(120_000);
    await api?.close();
    await h?.close();
    await services?.close();
  });

  it(`Elasticsearch down ${chaosSettings.esOutageSeconds} s: reads answer 503 problem bodies fast, PostgreSQL writes go on, the outbox drains after the restart`, async function () {
    this.timeout(600_000 + chaosSettings.esOutageSeconds * 3000);
    const load = startRequestLoad({ baseUrl: api.url, paths: ES_READS, concurrency: 4 });
    await eventually(() => load.samples().length >= 20, { timeoutMs: 30_000, what: '20 reads before the outage' });
    const healthy = load.samples();
    await services.stop('es');
    const downAt = Date.now();
    const before = await pgCampaigns();
    const createdBefore = created;
    while (Date.now() - downAt < chaosSettings.esOutageSeconds * 1000) {
      await writeCycle();
      await sleep(200);
    }
    const upAt = Date.now();
    const writtenDuringOutage = (await pgCampaigns()) - before;
    const queued = (await outboxDepth(h.deps.pg)).depth;
    const during = load.samples().filter((s) => s.startedAt >= downAt && s.endedAt <= upAt);
    await services.start('es');
    // Reads answer again once Elasticsearch is back (the load goes on until one does).
    const answeredAfterRestart = () => load.samples().some((s) => s.startedAt >= upAt && s.status === 200);
    await eventually(answeredAfterRestart, { timeoutMs: 60_000, what: 'a read answering 200 after the restart' });
    await load.stop();

    expect(healthy.length, 'requests before the outage').to.be.above(0);
    expect(
      healthy.every((s) => s.status === 200),
      'all reads succeed before the outage',
    ).to.equal(true);
    expect(during.length, 'requests during the outage').to.be.above(20);
    const wrong = during.filter(
      (s) => s.status !== 503 || !s.contentType.startsWith('application/problem+json') || s.service !== 'elasticsearch',
    );
    expect(wrong.slice(0, 3), 'every read during the outage is a 503 problem body naming elasticsearch').to.deep.equal(
      [],
    );
    const p99 = percentileMs(during, 99);
    console.log(
      `    ES outage ${((upAt - downAt) / 1000).toFixed(0)} s: ${during.length} reads, p50 ${percentileMs(during, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; ${writtenDuringOutage} campaigns written to PostgreSQL, outbox depth ${queued}`,
    );
    expect(p99, 'p99 of 503 answers (ms)').to.be.below(200);
    expect(writtenDuringOutage, 'campaigns written to PostgreSQL while Elasticsearch was down').to.equal(
      created - createdBefore,
    );
    expect(queued, 'outbox entries waiting for Elasticsearch').to.be.above(0);

    // After the restart: one publish drains the outbox and nothing is missing from the read aliases.
    for (let i = 0; i < 20 && (await outboxDepth(h.deps.pg)).depth > 0; i++)
      await h.runJob('publish').catch(() => sleep(500));
    expect((await outboxDepth(h.deps.pg)).depth).to.equal(0);
    await h.refresh();
    const report = await checkConsistency({ config: h.config, pg: h.deps.pg, es: h.deps.es });
    expect(
      report.ok,
      JSON.stringify(
        report.families.map((f) => ({
          family: f.family,
          missing: f.missing.count,
          extra: f.extra.count,
          stale: f.stale.count,
        })),
      ),
    ).to.equal(true);
    expect(report.families.find((f) => f.family === 'campaigns')!.elasticsearch).to.equal(created);
    // Every campaign is served again, page by page (a 60 s outage writes more than one page).
    let served = 0;
    for (let page = 0; ; page++) {
      const res = await fetch(`${api.url}/v4/campaigns?items=100&page=${page}`);
      expect(res.status).to.equal(200);
      const items = ((await res.json()) as unknown[]).length;
      served += items;
      if (items < 100) break;
    }
    expect(served).to.equal(created);
  });

  it(`PostgreSQL stopped ${chaosSettings.pgGapSeconds} s and restarted: requests fail cleanly, the same API process recovers by itself`, async function () {
    this.timeout(300_000);
    const paths = ['/v4/chains', '/v4/opportunities?items=5', '/v4/tokens?items=5', '/v4/claims/count?chainId=31337'];
    const load = startRequestLoad({ baseUrl: api.url, paths, concurrency: 4, timeoutMs: 15_000 });
    await eventually(() => load.samples().length >= 20, { timeoutMs: 30_000, what: '20 reads before the stop' });
    const healthy = load.samples();
    await services.stop('pg');
    const downAt = Date.now();
    await sleep(chaosSettings.pgGapSeconds * 1000);
    const gap = load.samples().filter((s) => s.startedAt >= downAt);
    const restartAt = Date.now();
    await services.start('pg');
    // The pools reconnect on their own: wait for every path to answer 200 again.
    const recoveredAt = await eventually(
      () => {
        const recent = load.samples().filter((s) => s.startedAt > Date.now() - 1000);
        return paths.every((p) => recent.some((s) => s.path === p && s.status === 200)) && Date.now();
      },
      { timeoutMs: 30_000, intervalMs: 250, what: 'every path answering 200 again' },
    ).catch(() => 0);
    const all = await load.stop();

    expect(
      healthy.every((s) => s.status === 200),
      JSON.stringify(healthy.find((s) => s.status !== 200)),
    ).to.equal(true);
    expect(gap.length, 'requests during the gap').to.be.above(0);
    // What needs no PostgreSQL may still answer 200 (chains cached for 2 s per process, opportunities
    // from Elasticsearch); everything else is a 503 problem body, never a 500.
    const unclean = gap.filter(
      (s) => s.status !== 200 && (s.status !== 503 || !s.contentType.startsWith('application/problem+json')),
    );
    expect(unclean.slice(0, 3), 'every failing request during the gap is a 503 problem body').to.deep.equal([]);
    const needsPostgres = gap.filter((s) => /\/v4\/(tokens|claims)/.test(s.path) && s.startedAt >= downAt + 500);
    expect(needsPostgres.length, 'requests needing PostgreSQL during the gap').to.be.above(0);
    expect(
      needsPostgres.filter((s) => s.status !== 503).slice(0, 3),
      'reads that need PostgreSQL are 503',
    ).to.deep.equal([]);
    expect(
      Math.max(...gap.map((s) => s.ms)),
      'slowest failure (ms): bounded by the pool connection timeout',
    ).to.be.below(7000);
    expect(recoveredAt, 'every path answers 200 again after the restart').to.be.above(0);
    console.log(
      `    PostgreSQL gap ${((restartAt - downAt) / 1000).toFixed(0)} s: ${gap.length} requests, ${gap.filter((s) => s.status === 503).length} answered 503 (p99 ${percentileMs(gap, 99).toFixed(0)} ms); recovered ${((recoveredAt - restartAt) / 1000).toFixed(1)} s after the restart began, ${all.filter((s: LoadSample) => s.status === 500).length} answers 500`,
    );
    expect(all.filter((s) => s.status === 500 || s.status === 0)).to.deep.equal([]);
    // The jobs' pool reconnects too.
    expect((await h.runJob('blocks')).status).to.equal('success');
  });
});
