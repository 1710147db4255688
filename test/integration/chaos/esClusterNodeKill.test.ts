import { expect } from 'chai';
import { startApiServer, type ApiServer } from '../../../api/server.js';
import { outboxDepth } from '../../../domain/tables/outbox.js';
import { checkConsistency } from '../../../indexer/project/consistency.js';
import { indexNames } from '../../../internal/es.js';
import { createLogger } from '../../../internal/logger.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { startPrivateEsCluster, type PrivateEsCluster } from '../../helpers/privateEsCluster.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';
import { percentileMs, startRequestLoad } from '../../helpers/requestLoad.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ES_READS = [
  '/v4/opportunities?items=10',
  '/v4/campaigns?items=10',
  '/v4/opportunities/count',
  '/v4/campaigns?chainId=31337&status=LIVE',
];
const CONCURRENCY = 4;

// Forming a cluster takes minutes on a small machine, so the case runs when CHAOS_ES_NODE_KILLS is set (`npm run chaos`).
if (chaosSettings.esNodeKills > 0)
  describe('chaos: one node of a three-node Elasticsearch cluster SIGKILLed under read and indexing load (private cluster)', function () {
    let cluster: PrivateEsCluster;
    let h: Harness;
    let api: ApiServer;
    let created = 0;

    /** One write cycle: a campaign on chain, then the blocks and campaigns jobs write it to PostgreSQL and publish it. */
    const writeCycle = async () => {
      // Start times move on with every block, so `salt: created` keeps every campaign id distinct.
      await seedCampaigns({ chain: h.chains[0]!, perTx: 1, txs: 1, salt: created });
      created += 1;
      // A publish that fails while a primary moves is recorded in job_runs; the outbox keeps its entries.
      for (const job of ['blocks', 'campaigns', 'publish']) await h.runJob(job).catch(() => {});
    };

    const health = () => h.deps.es.cluster.health({ timeout: '1s' }).catch(() => null);
    /** Number (1-based, node-<i>) of the node holding the primary of the campaigns index. */
    const primaryNode = async () => {
      const shards = await h.deps.es.cat.shards({
        index: indexNames(h.config.esIndexPrefix, 'campaigns').read,
        format: 'json',
      });
      const primary = shards.find((s) => s.prirep === 'p' && s.state === 'STARTED');
      const match = /^node-(\d+)$/.exec(primary?.node ?? '');
      if (!match) throw new Error(`no started campaigns primary: ${JSON.stringify(shards)}`);
      return Number(match[1]);
    };

    before(async function () {
      this.timeout(900_000);
      const t0 = Date.now();
      cluster = await startPrivateEsCluster();
      console.log(`    cluster of ${cluster.urls.length} nodes green in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      h = await createHarness({
        chainIds: [31337],
        env: {
          ES_URL: cluster.urls.join(','),
          ES_REPLICAS: '1',
          HOST: '127.0.0.1',
          PORT: '0',
          ES_REQUEST_TIMEOUT_MS: '5000',
        },
      });
      for (let i = 0; i < 4; i++) await writeCycle();
      expect((await h.runJob('publish')).status).to.equal('success');
      await h.deps.es.cluster.health({ wait_for_status: 'green', timeout: '120s' });
      api = await startApiServer({ config: h.config, logger: createLogger({ level: 'silent', name: 'chaos-api' }) });
    });

    after(async function () {
      this.timeout(180_000);
      await api?.close();
      await h?.close();
      await cluster?.close();
    });

    it(`${chaosSettings.esNodeKills} kill(s) of the node holding the primary, ${chaosSettings.esNodeDownSeconds} s down each: no read fails but those in flight, no document lost or duplicated, green again`, async function () {
      this.timeout(600_000 + chaosSettings.esNodeKills * (chaosSettings.esNodeDownSeconds * 1000 + 400_000));
      const load = startRequestLoad({ baseUrl: api.url, paths: ES_READS, concurrency: CONCURRENCY, timeoutMs: 30_000 });
      // Indexing load: write cycles back to back for the whole case, kills and restarts included.
      let writing = true;
      const writer = (async () => {
        while (writing) await writeCycle();
      })();
      await sleep(1500);
      const kills: {
        node: number;
        at: number;
        inFlight: number;
        bootMs: number;
        greenMs: number;
        writes: number;
      }[] = [];
      for (let k = 0; k < chaosSettings.esNodeKills; k++) {
        const node = await primaryNode();
        const at = Date.now();
        const createdBefore = created;
        await cluster.killNode(node);
        await sleep(chaosSettings.esNodeDownSeconds * 1000 - (Date.now() - at));
        const startAt = Date.now();
        await cluster.startNode(node);
        const restartedAt = Date.now();
        // Green: the node rejoined and every replica is allocated again.
        for (
          let hs = await health();
          hs?.status !== 'green' || hs.number_of_nodes !== cluster.urls.length;
          hs = await health()
        ) {
          if (Date.now() - restartedAt > 300_000) throw new Error('cluster not green within 300 s of the restart');
          await sleep(250);
        }
        // The requests in flight when the node died: at most CONCURRENCY.
        const inFlight = load.samples().filter((s) => s.startedAt <= at && s.endedAt >= at).length;
        const writes = created - createdBefore;
        kills.push({ node, at, inFlight, bootMs: restartedAt - startAt, greenMs: Date.now() - restartedAt, writes });
        await sleep(1000);
      }
      writing = false;
      await writer;
      const samples = await load.stop();

      const firstKill = kills[0]!.at;
      const afterKills = samples.filter((s) => s.startedAt >= firstKill);
      const failed = samples.filter((s) => s.status !== 200);
      const inFlightFailed = failed.filter((s) => kills.some((k) => s.startedAt <= k.at && s.endedAt >= k.at));
      for (const k of kills)
        console.log(
          `    killed node-${k.node} (campaigns primary), down ${chaosSettings.esNodeDownSeconds} s, restarted in ${(k.bootMs / 1000).toFixed(1)} s, cluster green ${(k.greenMs / 1000).toFixed(1)} s later; ${k.inFlight} reads in flight at the kill, ${k.writes} campaigns written from the kill to green`,
        );
      console.log(
        `    reads since the first kill: ${afterKills.length}, failed ${failed.length} (${inFlightFailed.length} of them in flight at a kill), p50 ${percentileMs(afterKills, 50).toFixed(1)} ms, p99 ${percentileMs(afterKills, 99).toFixed(1)} ms, max ${Math.max(...afterKills.map((s) => s.ms)).toFixed(0)} ms`,
      );
      expect(
        failed
          .filter((s) => !inFlightFailed.includes(s))
          .map((s) => ({ path: s.path, status: s.status, error: s.error })),
        'failed reads that were not in flight at a kill',
      ).to.deep.equal([]);
      expect(inFlightFailed.length).to.be.at.most(kills.length * CONCURRENCY);

      // Nothing lost or duplicated: the outbox drains and Elasticsearch holds exactly what PostgreSQL builds.
      for (let i = 0; i < 20 && (await outboxDepth(h.deps.pg)).depth > 0; i++)
        await h.runJob('publish').catch(() => sleep(500));
      expect((await outboxDepth(h.deps.pg)).depth, 'outbox entries left').to.equal(0);
      await h.refresh();
      const report = await checkConsistency({ config: h.config, pg: h.deps.pg, es: h.deps.es });
      const figures = report.families.map((f) => ({
        family: f.family,
        postgres: f.postgres,
        elasticsearch: f.elasticsearch,
        missing: f.missing.count,
        extra: f.extra.count,
        stale: f.stale.count,
      }));
      console.log(`    consistency: ${JSON.stringify(figures)}`);
      expect(report.ok, JSON.stringify(figures)).to.equal(true);
      for (const f of report.families) expect(f.elasticsearch, f.family).to.equal(f.postgres);
      expect(report.families.find((f) => f.family === 'campaigns')!.elasticsearch).to.equal(created);
      const final = await h.deps.es.cluster.health({ wait_for_status: 'green', timeout: '60s' });
      expect({ status: final.status, nodes: final.number_of_nodes }).to.deep.equal({
        status: 'green',
        nodes: cluster.urls.length,
      });
    });
  });
