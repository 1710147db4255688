import { expect } from 'chai';
import supertest from 'supertest';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { createApp } from '../../../api/app.js';
import { findJob } from '../../../jobs/registry.js';
import { runJob } from '../../../jobs/runJob.js';
import { getLatestTimestamp, mine } from '../../../contracts/actions.js';
import { buildWeb } from '../../../web/build.js';
import { eventuallyEquals, leaseBrowser, screenshot, watchErrors } from '../../helpers/browser.js';
import { DEAD_CHAIN_ID, withDeadChain } from '../../helpers/deadChain.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { seedCampaigns } from '../../helpers/seedCampaigns.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';

describe('operations page (/ops) triage in Chromium: what needs attention comes first', function () {
  let h: Harness;
  let dist: string;
  let server: Server;
  let base: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let app: ReturnType<typeof createApp>;
  const bo = { authorization: TEST_BACK_OFFICE_TOKEN };

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await h.startJobRunner(); // the ops page's "Run now" is answered by a job runner, as under npm start
    await seedCampaigns({ chain: h.chains[0]!, perTx: 2, txs: 1 });
    for (const job of ['blocks', 'campaigns', 'publish']) expect((await h.runJob(job)).status, job).to.equal('success');
    // A chain whose node is down: its blocks unit fails for real, and its RPC is unreachable.
    const dead = await withDeadChain(h);
    await runJob(findJob('blocks')!, { ...h.deps, ...dead }, { chainId: DEAD_CHAIN_ID }).catch(() => {});
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    await buildWeb({ outDir: dist });
    app = h.createApp({
      config: dead.config,
      rpc: dead.rpc,
      webDist: dist,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await leaseBrowser();
  });

  beforeEach(async function () {
    page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    errors = watchErrors(page);
  });

  afterEach(async function () {
    await page?.close();
    expect(errors, 'console errors and uncaught exceptions').to.deep.equal([]);
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (dist) rmSync(dist, { recursive: true, force: true });
    await h?.close();
  });

  /** Screenshots of the page as it is at 1366 px, then at 390 px (a phone: no sideways scroll). */
  const screenshots = async (name: string) => {
    await screenshot(page, `${name}-1366`);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await screenshot(page, `${name}-390`);
    await page.setViewportSize({ width: 1366, height: 900 });
  };

  /** The attention items the page shows, as [kind, text]. */
  const attentionItems = () =>
    page
      .getByTestId('attention-item')
      .evaluateAll((items) => items.map((i) => [i.getAttribute('data-kind'), i.textContent ?? '']));

  const signIn = async () => {
    await page.goto(`${base}/ops`);
    await page.fill('input[name=token]', TEST_BACK_OFFICE_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByTestId('ops-attention').waitFor();
    await page.getByTestId('ops-dependencies').waitFor();
  };

  it('opens on the unreachable RPC and the failing job, above every healthy dependency and job', async function () {
    await signIn();
    const items = page.getByTestId('attention-item');
    await eventuallyEquals(() => items.count(), 2, 'attention items');
    expect(await items.nth(0).getAttribute('data-kind')).to.equal('dependency');
    expect(await items.nth(0).textContent()).to.match(/^Dead chain RPC unreachable: /);
    expect(await items.nth(1).getAttribute('data-kind')).to.equal('failing');
    expect(await items.nth(1).textContent()).to.match(
      new RegExp(`^blocks failing: .*chain ${DEAD_CHAIN_ID}: 1 failed runs`, 's'),
    );

    // Dependencies: the dead RPC first, then PostgreSQL, Elasticsearch and the live RPC, reachable.
    const deps = page.locator('[data-testid^=dep-]');
    expect(
      await deps.evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-testid'), r.getAttribute('data-ok')])),
    ).to.deep.equal([
      [`dep-rpc:${DEAD_CHAIN_ID}`, 'false'],
      ['dep-postgres', 'true'],
      ['dep-elasticsearch', 'true'],
      ['dep-rpc:31337', 'true'],
    ]);
    expect(await page.getByTestId('dep-elasticsearch').textContent()).to.match(/cluster (green|yellow)/);
    expect(await page.getByTestId('dep-rpc:31337').textContent()).to.match(/head \d+/);

    // Jobs: the failing one first; each says its next run and last run.
    const order = await page
      .locator('article.job')
      .evaluateAll((jobs) => jobs.map((j) => [j.getAttribute('data-testid'), j.getAttribute('data-attention')]));
    expect(order[0]).to.deep.equal(['job-blocks', 'failing']);
    expect(order.slice(1).every(([, a]) => a !== 'failing')).to.equal(true);
    const campaigns = page.getByTestId('job-campaigns');
    // Its next tick (every 5 s) may have passed since the page read the listing on a busy machine.
    expect(await campaigns.getByTestId('job-next-run').textContent()).to.match(/^(in \d+ s|due now)$/);
    expect(await campaigns.getByTestId('job-last-run').textContent()).to.match(/^success .* ago/);
    expect(await campaigns.getByTestId('chain-lag').first().textContent()).to.equal('0 blocks · 0 s');
    // A job without block cursor says why instead of "lag ? blocks".
    expect(await page.getByTestId('job-tokens').getByTestId('job-lag-note').textContent()).to.match(/^no block lag: /);
    expect(await page.locator('body').textContent()).not.to.include('lag ? blocks');
    await screenshot(page, 'ops-triage-1366');

    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await screenshot(page, 'ops-triage-390');
  });

  it('shows freshness below a second in ms, the schedule source in words, and the chain of each recent run (#44)', async function () {
    await signIn();
    // Sub-second figures in ms (the tile read "0s / 0s (132 samples)"): the publish above was one.
    const freshness = (await page.getByTestId('ops-freshness').textContent()) ?? '';
    // On a devnet the block time may run ahead of the clock: the tile then says those samples were timed from indexing.
    expect(freshness).to.match(
      /^\d+(\.\d)? m?s \/ \d+(\.\d)? m?s \(\d+ samples?(; (all|\d+) timed from indexing: block time ahead of the clock)?\)$/,
    );
    expect(freshness).not.to.match(/(^|\s)0s/);
    // Where the schedule comes from, in words, never the table name.
    const blocks = page.getByTestId('job-blocks');
    expect(await blocks.getByTestId('job-schedule-source').textContent()).to.equal("(the job's default)");
    expect(await page.locator('body').textContent()).not.to.include('job_state');
    // Recent runs name their chain: the dead chain's failed unit and the live chain's runs.
    await blocks.locator('details.recent-runs summary').click();
    const chains = await blocks.getByTestId('run-chain').allTextContents();
    expect(chains).to.include(String(DEAD_CHAIN_ID));
    expect(await blocks.locator('table.runs th').allTextContents()).to.include('Chain');
    await blocks.locator('details.recent-runs').scrollIntoViewIfNeeded();
    await screenshots('ops-recent-runs');
  });

  it('lists a paused job under "Needs attention" (it said "Nothing" while benchmark-rate was paused, #44)', async function () {
    await supertest(app.callback()).post('/v4/internal/jobs/benchmark-rate/pause').set(bo).expect(200);
    try {
      await signIn();
      await page.getByTestId('attention-item').first().waitFor();
      const items = await attentionItems();
      expect(items).to.deep.include(['paused', 'benchmark-rate paused by an operator: scheduled runs are skipped']);
      expect(await page.getByTestId('attention-none').count()).to.equal(0);
      expect(await page.getByTestId('job-benchmark-rate').getAttribute('data-attention')).to.equal('paused');
      await screenshots('ops-attention-paused');
    } finally {
      await supertest(app.callback()).post('/v4/internal/jobs/benchmark-rate/resume').set(bo).expect(200);
    }
  });

  it('lists degraded health with the sentence /v4/health gives (LIVE campaigns without a price, #44)', async function () {
    // No price source: the metrics run leaves the seeded LIVE campaigns' reward token unpriced.
    for (const job of ['tokens', 'metrics']) expect((await h.runJob(job)).status, job).to.equal('success');
    const health = (await supertest(app.callback()).get('/v4/health').expect(503)).body as {
      status: string;
      reasons: string[];
      prices: { unpricedLiveCampaigns: { campaigns: number } };
    };
    expect(health.status).to.equal('degraded');
    expect(health.prices.unpricedLiveCampaigns.campaigns).to.equal(2);
    const unpriced = health.reasons.find((r) => r.includes('no fresh reward-token price'));
    expect(unpriced).to.match(/^2 live campaigns have no fresh reward-token price \(/);
    await signIn();
    await page.getByTestId('attention-item').first().waitFor();
    const items = await attentionItems();
    expect(items).to.deep.include(['degraded', `Health degraded: ${unpriced}`]);
    // Dependencies first, then what degrades health, then jobs.
    expect(items.map(([kind]) => kind).indexOf('degraded')).to.equal(1);
    await screenshots('ops-attention-degraded');
  });

  it('lists a lagging job under "Needs attention" once its cursor is far behind the head', async function () {
    // The chain moves 15 minutes on; only the headers follow, so campaigns lags 900 s behind.
    const rpcUrl = h.chains[0]!.devnet.rpcUrl;
    await mine({ rpcUrl, blocks: 5, timestamp: (await getLatestTimestamp({ rpcUrl })) + 900 });
    expect((await h.runJob('blocks')).status).to.equal('success');
    await signIn();
    await page.getByTestId('attention-item').first().waitFor();
    const items = await attentionItems();
    const lagging = items.find(([kind, text]) => kind === 'lagging' && text!.startsWith('campaigns lagging: '));
    expect(lagging?.[1]).to.match(/^campaigns lagging: chain 31337: \d+ s behind the head \(5 blocks\)$/);
    expect(await page.getByTestId('job-campaigns').getAttribute('data-attention')).to.equal('lagging');
    await screenshots('ops-attention-lagging');
  });

  it("shows an action's result beside the job's own buttons, not at the top of the page", async function () {
    await signIn();
    const retention = page.getByTestId('job-retention');
    await retention.getByRole('button', { name: 'Run now' }).click();
    const result = retention.getByTestId('action-result');
    await eventuallyEquals(
      async () => /^run retention: success/.test((await result.textContent()) ?? ''),
      true,
      'result',
    );
    // Beside the buttons: within the job's action bar, visible in the viewport after the click.
    const [button, shown] = await Promise.all([
      retention.getByRole('button', { name: 'Run now' }).boundingBox(),
      result.boundingBox(),
    ]);
    expect(Math.abs(shown!.y - button!.y), 'px between the button and its result').to.be.below(150);
    expect(await result.isVisible()).to.equal(true);
    expect(await page.getByTestId('job-campaigns').getByTestId('action-result').textContent()).to.equal('');
    expect(await page.getByTestId('ops-message').count(), 'no page-wide message').to.equal(0);
    await retention.scrollIntoViewIfNeeded();
    await screenshot(page, 'ops-action-result');
  });
});
