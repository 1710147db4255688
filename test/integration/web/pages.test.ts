import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { parseState } from '../../../web/explorer/state.js';
import { binsWithinFilter } from '../../../web/explorer/visibleBins.js';
import { eventuallyEquals, leaseBrowser, screenshot, watchErrors } from '../../helpers/browser.js';
import { startDemoWebServer, type DemoWebServer } from '../../helpers/demoWebServer.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import type { ReferenceDemo } from '../api/referenceDemo.js';
import { getJson } from '../../helpers/getJson.js';

type Bin = { min: number; max: number; count: number };

describe('explorer (/) and operations (/ops) pages in Chromium, on the demo data', function () {
  let web: DemoWebServer;
  let demo: ReferenceDemo;
  let dist: string;
  let base: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  const api = <T>(path: string) => getJson<T>(`${base}${path}`);
  const rowIds = () =>
    page.locator('[data-testid=opportunity-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
  const barCounts = (metric: string) =>
    page
      .locator(`[data-testid=bins-${metric}] .bar`)
      .evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('data-count'))));
  /** The page's URL query is the API's OPP-FILTERS query (same keys), minus the view's own keys. */
  const filterOf = (url: string) => {
    const q = new URL(url).searchParams;
    for (const key of ['sort', 'order', 'page', 'items', 'opportunity', 'campaign', 'grain']) q.delete(key);
    return q.toString();
  };
  /** Waits until the list, totals and all three histograms show what the API answers for the page's current filter. */
  const expectMatchesApi = async (what: string) => {
    const filter = filterOf(page.url());
    const [list, count, tvl, bins] = await Promise.all([
      api<{ id: string }[]>(`/v4/opportunities?${filter}`),
      api<number>(`/v4/opportunities/count?${filter}`),
      api<{ sum: string }>(`/v4/opportunities/aggregate/tvl?${filter}`),
      Promise.all(
        ['apr', 'tvl', 'daily-rewards'].map((m) => api<{ data: Bin[] }>(`/v4/opportunities/bins/${m}?${filter}`)),
      ),
    ]);
    await eventuallyEquals(
      rowIds,
      list.map((o) => o.id),
      `${what}: list`,
    );
    await eventuallyEquals(() => page.getByTestId('total-count').textContent(), String(count), `${what}: count`);
    await eventuallyEquals(() => page.getByTestId('total-tvl').getAttribute('data-value'), tvl.sum, `${what}: TVL sum`);
    // The bars drawn are the API's bins that the filter's range can hold (none below its minimum: #31).
    const state = parseState(`?${filter}`);
    const shown = (['Apr', 'Tvl', 'DailyRewards'] as const).map((metric, i) =>
      binsWithinFilter(bins[i]!.data, state, metric).map((b) => b.count),
    );
    for (const [i, metric] of ['apr', 'tvl', 'daily-rewards'].entries())
      await eventuallyEquals(() => barCounts(metric), shown[i]!, `${what}: ${metric} bins`);
    return { list, count, bins: shown };
  };

  before(async function () {
    web = await startDemoWebServer();
    ({ demo, dist, base } = web);
    browser = await leaseBrowser();
  });

  beforeEach(async function () {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = watchErrors(page);
  });

  afterEach(async function () {
    await page?.close();
    expect(errors, 'console errors and uncaught exceptions').to.deep.equal([]);
  });

  after(async () => {
    await browser?.close();
    await web?.close();
  });

  it('explorer: list, totals and histograms match the API; a filter and a histogram bar narrow them; the URL reloads the view', async function () {
    await page.goto(`${base}/`);
    const all = await expectMatchesApi('unfiltered');
    expect(all.list.length).to.be.greaterThan(3);
    await screenshot(page, 'explorer-desktop');

    await page.locator('[data-testid=filter-action] input[value=POOL]').check();
    await page.waitForURL(/action=POOL/);
    const pools = await expectMatchesApi('action=POOL');
    expect(pools.list.length).to.be.within(1, all.list.length - 1);
    expect(pools.bins, 'the histograms changed with the filter').to.not.deep.equal(all.bins);

    const tvlBars = page.locator('[data-testid=bins-tvl] .bar');
    const index = pools.bins[1]!.findIndex((n) => n > 0 && n < pools.count);
    expect(index, `a TVL bar that narrows ${JSON.stringify(pools.bins[1])}`).to.be.at.least(0);
    await tvlBars.nth(index).click();
    await page.waitForURL(/(minimum|maximum)Tvl=/);
    const narrowed = await expectMatchesApi('TVL bar');
    expect(narrowed.count).to.equal(pools.bins[1]![index]);

    const url = page.url();
    await page.reload();
    expect(page.url()).to.equal(url);
    await expectMatchesApi('after reload');
    await screenshot(page, 'explorer-filtered');
  });

  it('explorer: keyboard alone applies filters (checkbox with Space, histogram bar with Enter) and the back button restores the view', async function () {
    await page.goto(`${base}/`);
    await expectMatchesApi('unfiltered');
    await page.locator('[data-testid=filter-status] input[value=LIVE]').focus();
    await page.keyboard.press('Space');
    await page.waitForURL(/status=LIVE/);
    await expectMatchesApi('status=LIVE');
    const bar = page.locator('[data-testid=bins-apr] .bar:not([disabled])').first();
    await bar.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/(minimum|maximum)Apr=/);
    await expectMatchesApi('APR bar');
    await page.goBack();
    await page.waitForURL((u) => !/Apr=/.test(u.search) && /status=LIVE/.test(u.search));
    await expectMatchesApi('back');
  });

  it('opportunity detail: tokens, campaigns with reward amounts and history charts at a chosen grain; campaign detail with its tree', async function () {
    await page.goto(`${base}/?sort=tvl`);
    await page.locator('[data-testid=opportunity-row]').first().waitFor();
    const id = await page.locator('[data-testid=opportunity-row]').first().getAttribute('data-id');
    await page.locator('[data-testid=opportunity-row] a').first().click();
    await page.waitForURL(new RegExp(`opportunity=${id}`));
    await page.getByTestId('opportunity-detail').waitFor();
    const opportunity = await api<{ name: string; campaigns: { id: string; rewardToken: { symbol: string } }[] }>(
      `/v4/opportunities/${id}/campaigns`,
    );
    expect(await page.locator('h2').first().textContent()).to.include(opportunity.name);
    await eventuallyEquals(
      () => page.locator('[data-testid=campaign-row]').count(),
      opportunity.campaigns.length,
      'campaign rows',
    );
    for (const grain of ['day', 'hour'] as const) {
      if (grain !== 'day') {
        await page.selectOption('select[name=grain]', grain);
        await page.waitForURL(new RegExp(`grain=${grain}`));
      }
      const records = await api<unknown[]>(`/v4/opportunities/${id}/apr-records?grain=${grain}&items=100`);
      expect(records.length, `${grain} APR records`).to.be.greaterThan(0);
      await eventuallyEquals(
        () => page.getByTestId('history-apr').getAttribute('data-points'),
        String(records.length),
        `APR chart points by ${grain}`,
      );
      expect(await page.locator('[data-testid=history-apr] svg circle').count()).to.equal(records.length);
      expect(await page.locator('[data-testid=history-tvl] svg circle').count()).to.be.greaterThan(0);
    }
    await screenshot(page, 'opportunity');

    for (const [button, kind, column] of [
      ['APR CSV', 'apr', 'apr'],
      ['TVL CSV', 'tvl', 'tvl'],
      ['Daily rewards CSV', 'daily-rewards', 'dailyRewards'],
    ] as const) {
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: button }).click();
      const file = await download;
      expect(file.suggestedFilename()).to.equal(`${kind}-${id}-hour.csv`);
      const records = await api<Record<string, string | number>[]>(
        `/v4/opportunities/${id}/${kind}-records?grain=hour&items=100`,
      );
      const lines = readFileSync((await file.path())!, 'utf8')
        .trimEnd()
        .split('\n');
      expect(lines[0], `${button}: header`).to.equal(`timestamp,date,${column}`);
      expect(lines.slice(1), `${button}: rows`).to.deep.equal(
        records.map((r) => `${r['timestamp']},${r['date']},${r[column]}`),
      );
    }

    await page.locator('[data-testid=campaign-row] a').first().click();
    await page.getByTestId('campaign-detail').waitFor();
    const campaignId = new URL(page.url()).searchParams.get('campaign');
    const linked = await api<unknown[]>(`/v4/campaigns/${campaignId}/linked`);
    await eventuallyEquals(
      () => page.locator('[data-testid=campaign-tree] li').count(),
      linked.length,
      'campaign tree',
    );
    await screenshot(page, 'campaign');
    await page.goBack();
    await page.getByTestId('opportunity-detail').waitFor();
  });

  it("fits a phone's width: no horizontal scrolling, filters folded, opportunities as cards", async function () {
    await page.close();
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    errors = watchErrors(page);
    await page.goto(`${base}/`);
    await expectMatchesApi('phone');
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(390);
    expect(await page.locator('details.filters-panel').getAttribute('open')).to.equal(null);
    await screenshot(page, 'explorer-phone');
    await page.locator('[data-testid=opportunity-row] a').first().click();
    await page.getByTestId('history-apr').locator('svg').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(390);
    await screenshot(page, 'opportunity-phone');
  });

  it('stays under the default anonymous rate limit (10/s): loading and filtering get no 429', async function () {
    const { h } = demo;
    const limited = h
      .createApp({
        config: { ...h.config, rateLimits: { anonymous: 10, tiers: [50, 200, 1000] } },
        webDist: dist,
      })
      .listen(0, '127.0.0.1');
    await new Promise((resolve) => limited.once('listening', resolve));
    const statuses: number[] = [];
    const apiCalls: string[] = [];
    page.on('response', (r) => {
      statuses.push(r.status());
      if (new URL(r.url()).pathname.startsWith('/v4/')) apiCalls.push(r.url());
    });
    try {
      await page.goto(`http://127.0.0.1:${(limited.address() as { port: number }).port}/?status=LIVE`);
      await page.locator('[data-testid=filter-action] input[value=LEND]').check();
      await page.waitForURL(/action=LEND/);
      await page.locator('[data-testid=filter-action] input[value=POOL]').check();
      await page.waitForURL(/action=LEND%2CPOOL|action=LEND,POOL/);
      await expectMatchesApi('rate limited');
      expect(statuses.filter((s) => s === 429)).to.deep.equal([]);
      expect(
        apiCalls.length,
        `chains, protocols, programs (#46's filter), then a list and a summary per view: ${apiCalls.join(' ')}`,
      ).to.be.at.most(3 + 2 * 3);
    } finally {
      await new Promise((resolve) => limited.close(resolve));
    }
  });

  it('operations: asks for the back-office token, lists every job, pauses and resumes one with its state persisted', async function () {
    const { h } = demo;
    await page.goto(`${base}/ops`);
    await page.fill('input[name=token]', TEST_BACK_OFFICE_TOKEN);
    await page.keyboard.press('Enter');
    const prices = page.getByTestId('job-prices');
    await prices.waitFor();
    expect(await page.locator('[data-testid^=job-]').count()).to.be.greaterThan(5);
    expect(await prices.getAttribute('data-state')).to.equal('active');
    const persisted = async () =>
      (await h.deps.pg.query(`SELECT paused FROM job_state WHERE job = 'prices'`)).rows[0]?.paused ?? false;

    await prices.getByRole('button', { name: 'Pause' }).click();
    await eventuallyEquals(() => prices.getAttribute('data-state'), 'paused', 'prices paused on the page');
    expect(await persisted()).to.equal(true);
    await page.reload(); // the token stays in this tab's sessionStorage
    await eventuallyEquals(
      () => page.getByTestId('job-prices').getAttribute('data-state'),
      'paused',
      'paused after reload',
    );
    await screenshot(page, 'ops-paused');

    await page.getByTestId('job-prices').getByRole('button', { name: 'Resume' }).click();
    await eventuallyEquals(
      () => page.getByTestId('job-prices').getAttribute('data-state'),
      'active',
      'prices resumed on the page',
    );
    expect(await persisted()).to.equal(false);
    await screenshot(page, 'ops');
  });
});
