import { expect } from 'chai';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { createChainClients } from '../../../internal/rpc.js';
import { runJob } from '../../../jobs/runJob.js';
import { syncCampaigns } from '../../../jobs/syncCampaigns.js';
import type { JobDeps } from '../../../domain/jobs/types.js';
import { startFlakyRpcProxy, type FlakyRpcProxy } from '../../helpers/flakyRpcProxy.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

describe('campaigns job under RPC faults', function () {
  let h: Harness;
  let proxy: FlakyRpcProxy;
  let deps: JobDeps;
  const CAMPAIGNS = 12;

  before(async function () {
    h = await createHarness({
      chainIds: [31337],
      env: { RPC_RETRIES: '3', RPC_TIMEOUT_MS: '400', INDEXER_MAX_LOG_RANGE: '1000' },
    });
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    for (let i = 0; i < CAMPAIGNS; i++) {
      await createCampaigns({
        rpcUrl: devnet.rpcUrl,
        chainId: devnet.chainId,
        stack,
        campaigns: [
          {
            rewardToken: stack.tokens.rewards[0]!.address,
            amount: 10n ** 18n,
            campaignType: 1,
            startTimestamp: now + 100 + i,
            duration: 86_400,
            campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
          },
        ],
      });
    }
    await h.runJob('blocks');
    proxy = await startFlakyRpcProxy(devnet.rpcUrl);
    const config = { ...h.config, chains: h.config.chains.map((c) => ({ ...c, rpcUrl: proxy.url })) };
    deps = { ...h.deps, config, rpc: createChainClients(config) };
  });

  after(async () => {
    await proxy?.close();
    await h?.close();
  });

  const stored = async () =>
    Number((await h.apiPg.query<{ n: string }>('SELECT count(*) AS n FROM campaigns')).rows[0]!.n);
  const cursor = async () =>
    (await h.apiPg.query<{ n: string }>(`SELECT block_number AS n FROM cursors WHERE job = 'campaigns'`)).rows[0]?.n ??
    null;

  it('fails loudly after its bounded retries, leaving the cursor where it was', async function () {
    proxy.failNext(50, 503);
    let failure: unknown;
    await runJob(syncCampaigns, deps).catch((e) => (failure = e));
    expect(failure).to.be.instanceOf(Error);
    expect(await cursor()).to.equal(null);
    expect(await stored()).to.equal(0);
    const { rows } = await h.apiPg.query<{ status: string; error: string }>(
      `SELECT status, error FROM job_runs WHERE job = 'campaigns' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]!.status).to.equal('failed');
    expect(rows[0]!.error).to.match(/503|HTTP request failed/i);
    proxy.heal();
  });

  it('retries 429s, 5xx and timeouts within its bound', async function () {
    proxy.failNext(1, 429);
    proxy.delayNext(1, 1500); // past RPC_TIMEOUT_MS: viem times out and retries
    proxy.failNext(1, 502);
    const run = await runJob(syncCampaigns, deps);
    expect(run.status).to.equal('success');
    expect(await stored()).to.equal(CAMPAIGNS);
  });

  it('splits getLogs ranges a node refuses, and still indexes every campaign', async function () {
    await h.apiPg.query('SELECT 1'); // same data, re-read from scratch below
    const writer = h.deps.pg;
    await writer.query(`DELETE FROM campaigns; DELETE FROM cursors WHERE job = 'campaigns'`);
    proxy.limitLogRange(3);
    const before = proxy.getLogsCalls().length;
    const run = await runJob(syncCampaigns, deps);
    expect(run.status).to.equal('success');
    expect(await stored()).to.equal(CAMPAIGNS);
    const calls = proxy.getLogsCalls().slice(before);
    expect(
      calls.some((c) => c.refused),
      'the wide first range was refused',
    ).to.equal(true);
    expect(calls.filter((c) => !c.refused).every((c) => c.span <= 3)).to.equal(true);
    proxy.limitLogRange(null);
  });
});
