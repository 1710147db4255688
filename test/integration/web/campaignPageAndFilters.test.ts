import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { eventuallyEquals, leaseBrowser, screenshot, watchErrors } from '../../helpers/browser.js';
import { startDemoWebServer, type DemoWebServer } from '../../helpers/demoWebServer.js';
import { getJson } from '../../helpers/getJson.js';

type Chain = { id: number; explorers: { url: string }[] };
type Campaign = {
  id: string;
  type: string;
  opportunityId: string;
  startTimestamp: string;
  params: Record<string, unknown>;
};
type Metrics = {
  aprRecords: { timestamp: string; apr: number }[];
  tvlRecords: { timestamp: string; total: number }[];
  dailyRewardsRecords: { timestamp: string; total: number; totalInToken: number }[];
};

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const hhmm = (t: number) => new Date(t * 1000).toISOString().slice(11, 16);

/**
 * Issue 44, explorer items: min/max fields apply as you type like the search (and the results stay
 * in view while the lower filters are edited), campaign pages (decoded parameters, metrics CSV,
 * time-of-day axes, one-line addresses, aligned charts), no block-explorer link on a chain without
 * one, and no date or reward broken inside on a phone. Demo data, real API, Chromium.
 */
describe('explorer: filters as you type, campaign pages, explorer links and phone dates (Chromium, #44)', function () {
  let web: DemoWebServer;
  let base: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let campaigns: Campaign[];

  const api = <T>(path: string) => getJson<T>(`${base}${path}`);
  const open = async (viewport: { width: number; height: number }, path: string) => {
    await page?.close();
    page = await browser.newPage({ viewport });
    errors = watchErrors(page);
    await page.goto(`${base}${path}`);
  };
  const resultsReady = () => page.locator('[data-testid=results][data-ready=true]').waitFor();
  /** Which elements matching `selector` inside `within` span more than one line (their text boxes start at different heights). */
  const wrapped = (within: string, selector: string) =>
    page.locator(within).evaluate((root, sel) => {
      const out: string[] = [];
      for (const el of root.querySelectorAll(sel)) {
        const range = document.createRange();
        range.selectNodeContents(el);
        // Boxes of one line differ by a pixel or two (an inline element's box and its text's): a new line is 8 px lower at least.
        const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
        if (Math.max(...tops) - Math.min(...tops) > 8) out.push(el.textContent ?? '');
      }
      return out;
    }, selector);

  before(async function () {
    web = await startDemoWebServer();
    base = web.base;
    browser = await leaseBrowser();
    campaigns = await api<Campaign[]>('/v4/campaigns?items=100');
  });

  afterEach(async function () {
    await page?.close();
    expect(errors, 'console errors and uncaught exceptions').to.deep.equal([]);
  });

  after(async () => {
    await browser?.close();
    await web?.close();
  });

  it('min and max apply as you type (debounced, like the search), keeping focus: no Enter, no leaving the field', async function () {
    await open(DESKTOP, '/');
    await resultsReady();
    const all = await api<number>('/v4/opportunities/count');
    // A minimum that leaves the three largest TVLs (and not all of them).
    const tvls = (await api<{ tvl: number }[]>('/v4/opportunities?sort=tvl&order=desc&items=100')).map((o) => o.tvl);
    const minimum = String(Math.floor(tvls[2]!));
    const min = page.locator('input[name=minimumTvl]');
    await min.click();
    await page.keyboard.type(minimum);
    await page.waitForURL(new RegExp(`minimumTvl=${minimum}(&|$)`), { timeout: 5000 });
    const count = await api<number>(`/v4/opportunities/count?minimumTvl=${minimum}`);
    expect(count, 'the minimum narrows the demo').to.be.within(1, all - 1);
    await eventuallyEquals(
      () => page.getByTestId('total-count').textContent(),
      String(count),
      'count under the minimum',
    );
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).to.equal('minimumTvl');
    expect(await min.inputValue(), 'the typed value stays as typed').to.equal(minimum);
    // Clearing the field as you type removes the filter the same way.
    await min.fill('');
    await page.waitForURL((u) => !u.search.includes('minimumTvl'), { timeout: 5000 });
    await eventuallyEquals(
      () => page.getByTestId('total-count').textContent(),
      String(all),
      'count without the minimum',
    );
  });

  it('desktop: editing the lowest filters keeps the results in view (the filters scroll on their own)', async function () {
    await open(DESKTOP, '/?search=stETHx');
    await resultsReady();
    const panelHeight = await page.locator('.filters').evaluate((f) => f.scrollHeight);
    expect(panelHeight, 'the filters are taller than the window').to.be.greaterThan(DESKTOP.height);
    const max = page.locator('input[name=maximumDailyRewards]');
    await max.click();
    await page.keyboard.type('100000');
    await page.waitForURL(/maximumDailyRewards=100000/, { timeout: 5000 });
    await resultsReady();
    const view = await page.evaluate(() => {
      const totals = document.querySelector('[data-testid=totals]')!.getBoundingClientRect();
      const field = document.querySelector('input[name=maximumDailyRewards]')!.getBoundingClientRect();
      return { totalsTop: totals.top, totalsBottom: totals.bottom, fieldTop: field.top, height: innerHeight };
    });
    expect(view.fieldTop, 'the field being edited is on screen').to.be.within(0, view.height);
    expect(view.totalsBottom, `the totals are on screen: ${JSON.stringify(view)}`).to.be.greaterThan(0);
    expect(view.totalsTop).to.be.below(view.height);
    await screenshot(page, 'issue44-filters-1366');
  });

  it('phone: the folded filters apply as you type too', async function () {
    await open(PHONE, '/');
    await resultsReady();
    await page.locator('details.filters-panel > summary').click();
    await page.locator('input[name=minimumApr]').click();
    await page.keyboard.type('1');
    await page.waitForURL(/minimumApr=1/, { timeout: 5000 });
    await resultsReady();
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(PHONE.width);
    await screenshot(page, 'issue44-filters-390');
  });

  it('campaign parameters of Morpho, Uniswap V4 and Ajna campaigns are decoded, not shown raw', async function () {
    /** Each type's parameter as its words name it: [type, key, value from the raw data]. */
    const expected: [string, string, (raw: string) => string][] = [
      ['MORPHO', 'marketId', (raw) => raw],
      ['UNISWAP_V4', 'poolId', (raw) => raw.slice(0, 66)],
      ['AJNA', 'pool', (raw) => `0x${raw.slice(26, 66)}`],
    ];
    for (const [type, key, decode] of expected) {
      const c = campaigns.find((x) => x.type === type)!;
      expect(c, `a demo ${type} campaign`).to.not.equal(undefined);
      const raw = c.params['raw'] as string;
      expect(raw, `${type}: the API serves its data undecoded`).to.match(/^0x[0-9a-f]{64}/);
      await open(DESKTOP, `/?campaign=${c.id}`);
      await page.getByTestId('campaign-params').waitFor();
      const keys = await page
        .locator('[data-testid=campaign-params] tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
      const value = decode(raw);
      expect(keys, `${type} parameter rows`).to.deep.equal([key]);
      expect(
        await page
          .locator(`[data-testid=campaign-params] tr[data-key=${key}] [data-testid=copy]`)
          .getAttribute('data-copy'),
      ).to.equal(value);
      expect(await page.getByTestId('campaign-params').textContent(), `${type}: no "Raw 0x…" row`).to.not.match(
        /Raw\s*0x/,
      );
      if (type === 'MORPHO') await screenshot(page, 'issue44-campaign-morpho-1366');
    }
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`campaign page at ${viewport.width} px: one-line addresses and dates, time-of-day axes, aligned charts, a metrics CSV`, async function () {
      const c = campaigns.find((x) => x.type === 'ERC20' && Number(x.startTimestamp) < Date.now() / 1000)!;
      const metrics = await api<Metrics>(
        `/v4/campaigns/${c.id}/metrics?apr[limit]=1000&tvl[limit]=1000&dailyRewards[limit]=1000`,
      );
      expect(
        metrics.aprRecords.length * metrics.tvlRecords.length * metrics.dailyRewardsRecords.length,
      ).to.be.greaterThan(0);
      await open(viewport, `/?campaign=${c.id}`);
      await page.getByTestId('campaign-detail').waitFor();
      await page.getByTestId('campaign-daily-rewards').locator('svg').waitFor();

      // Addresses: one line each, shortened, the whole address on hover and in the copy button.
      const addresses = await page.locator('[data-testid=campaign-detail] [data-testid=address]').evaluateAll((els) =>
        els.map((el) => {
          const shown = el.querySelector('.mono')!;
          return {
            address: el.getAttribute('data-address'),
            title: shown.getAttribute('title'),
            copy: el.querySelector('[data-testid=copy]')?.getAttribute('data-copy'),
            text: shown.textContent,
            lines: new Set([...shown.getClientRects()].map((r) => Math.round(r.top))).size,
          };
        }),
      );
      expect(addresses.length, 'reward token, creator and target token').to.be.at.least(3);
      for (const a of addresses) {
        expect(a.lines, `${a.address} on one line`).to.equal(1);
        expect(a.text).to.equal(`${a.address!.slice(0, 6)}…${a.address!.slice(-4)}`);
        expect(a.title).to.contain(a.address);
        expect(a.copy).to.equal(a.address);
      }
      expect(await wrapped('[data-testid=campaign-detail]', 'time .nowrap'), 'dates broken inside').to.deep.equal([]);
      expect(await wrapped('[data-testid=campaign-detail]', '[data-testid=address]'), 'addresses broken').to.deep.equal(
        [],
      );

      // The axes of a span under a day are labelled by time of day, the date in the axis title.
      for (const [testId, records] of [
        ['campaign-apr', metrics.aprRecords],
        ['campaign-tvl', metrics.tvlRecords],
        ['campaign-daily-rewards', metrics.dailyRewardsRecords],
      ] as const) {
        const ts = records.map((r) => Number(r.timestamp));
        const [t0, t1] = [Math.min(...ts), Math.max(...ts)];
        expect(t1 - t0, `${testId}: the demo's history spans minutes`).to.be.below(86_400);
        const chart = page.getByTestId(testId);
        expect(await chart.locator('.axis-from').textContent(), `${testId} axis start`).to.equal(hhmm(t0));
        expect(await chart.locator('.axis-to').textContent(), `${testId} axis end`).to.equal(hhmm(t1));
      }
      // The three charts start at the same height when they share a row.
      const tops = await page
        .locator('[data-testid=campaign-detail] .charts svg')
        .evaluateAll((svgs) => svgs.map((s) => Math.round(s.getBoundingClientRect().top)));
      expect(tops).to.have.length(3);
      if (viewport === DESKTOP) expect(new Set(tops).size, `chart tops ${tops.join(', ')}`).to.equal(1);
      else expect(tops[0]! < tops[1]! && tops[1]! < tops[2]!, 'stacked on a phone').to.equal(true);
      expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(viewport.width);
      await screenshot(page, `issue44-campaign-${viewport.width}`);

      // The metrics CSV: the rows the charts draw, one per snapshot, oldest first.
      const download = page.waitForEvent('download');
      await page.getByTestId('campaign-metrics-csv').click();
      const file = await download;
      expect(file.suggestedFilename()).to.equal(`campaign-${c.id}-metrics.csv`);
      const lines = readFileSync((await file.path())!, 'utf8')
        .trimEnd()
        .split('\n');
      expect(lines[0]).to.equal('timestamp,date,apr,tvl,dailyRewards,dailyRewardsInToken');
      const times = [
        ...new Set(
          [...metrics.aprRecords, ...metrics.tvlRecords, ...metrics.dailyRewardsRecords].map((r) =>
            Number(r.timestamp),
          ),
        ),
      ].sort((a, b) => a - b);
      expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).to.deep.equal(times);
      const last = metrics.dailyRewardsRecords.at(-1)!;
      const row = lines.find((l) => l.startsWith(`${last.timestamp},`))!.split(',');
      expect(row.slice(1)).to.deep.equal([
        new Date(Number(last.timestamp) * 1000).toISOString(),
        String(metrics.aprRecords.find((r) => r.timestamp === last.timestamp)?.apr ?? ''),
        String(metrics.tvlRecords.find((r) => r.timestamp === last.timestamp)?.total ?? ''),
        String(last.total),
        String(last.totalInToken),
      ]);
    });
  }

  it('a chain without a block explorer shows no "on the block explorer" link (the devnet had its RPC URL as one)', async function () {
    const chains = await api<Chain[]>('/v4/chains');
    expect(chains.map((c) => c.explorers)).to.deep.equal(chains.map(() => []));
    const c = campaigns.find((x) => x.type === 'ERC20')!;
    await open(DESKTOP, `/?opportunity=${c.opportunityId}`);
    await page.getByTestId('opportunity-detail').waitFor();
    await page.locator('[data-testid=campaign-row]').first().waitFor();
    expect(await page.getByTestId('explorer-link').count()).to.equal(0);
    expect(await page.locator('[data-testid=opportunity-detail] a', { hasText: 'block explorer' }).count()).to.equal(0);
    expect(
      await page.locator('[data-testid=opportunity-detail] a[href*="127.0.0.1"]').count(),
      'no link to the RPC',
    ).to.equal(0);
    await screenshot(page, 'issue44-opportunity-1366');
  });

  it('phone: no date breaks at its hyphen and no reward cell splits "USDC … (TOKEN)"', async function () {
    const c = campaigns.find((x) => x.type === 'ERC20')!;
    await open(PHONE, `/?opportunity=${c.opportunityId}`);
    await page.locator('[data-testid=campaign-row]').first().waitFor();
    const rows = await page.locator('[data-testid=campaign-row]').count();
    expect(rows).to.be.greaterThan(1);
    // Every date as text (wherever it is in the list), and every reward cell, sits on one line.
    const brokenDates = await page.getByTestId('campaign-list').evaluate((list) => {
      const out: string[] = [];
      const walker = document.createTreeWalker(list, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode())
        for (const m of (n.textContent ?? '').matchAll(/\d{4}-\d{2}-\d{2}/g)) {
          const range = document.createRange();
          range.setStart(n, m.index!);
          range.setEnd(n, m.index! + m[0].length);
          const tops = [...range.getClientRects()].map((r) => r.top);
          if (Math.max(...tops) - Math.min(...tops) > 8) out.push(m[0]);
        }
      return out;
    });
    expect(brokenDates).to.deep.equal([]);
    const rewards = await page.locator('[data-testid=campaign-row] td[data-label=Reward]').evaluateAll((cells) =>
      cells.map((td) => {
        // Each piece of text of the cell (symbol, type) as a box, left to right.
        const boxes: DOMRect[] = [];
        const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (!n.textContent?.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(n);
          boxes.push(range.getBoundingClientRect());
        }
        boxes.sort((a, b) => a.left - b.left);
        const tops = boxes.map((b) => b.top);
        return {
          text: td.textContent,
          lines: Math.max(...tops) - Math.min(...tops) > 8 ? 2 : 1,
          gap: Math.max(0, ...boxes.slice(1).map((b, i) => b.left - boxes[i]!.right)),
        };
      }),
    );
    for (const r of rewards) {
      expect(r.lines, `${r.text} on one line`).to.equal(1);
      expect(r.gap, `${r.text}: symbol and type side by side, not pushed apart`).to.be.below(20);
    }
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(PHONE.width);
    await screenshot(page, 'issue44-opportunity-390');
  });
});
