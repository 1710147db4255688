import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_RATE_LIMITS } from '../../../api/middleware/rateLimit.js';
import { buildWeb } from '../../../web/build.js';
import { eventuallyEquals, leaseBrowser, screenshot, watchErrors } from '../../helpers/browser.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { createReferenceDemo, type ReferenceDemo } from '../api/referenceDemo.js';
import { getJson } from '../../helpers/getJson.js';

type Summary = { count: number };
type Sample = { view: string; count: string | null; rows: string; ready: string | null };

/**
 * Issue 20: the explorer answers at once with the default rate limits in force (times printed, not
 * asserted: they depend on the machine), never shows parts of two states, says in plain words what
 * is wrong with a filter; the operations page reads well at 1366 px.
 */
describe('explorer speed, stale states and filter messages; operations layout (Chromium, default rate limits)', function () {
  let demo: ReferenceDemo;
  let dist: string;
  /** Default limits (10/s anonymous): what the browser uses. */
  let limited: Server;
  /** Unlimited (test config): what the test itself compares against, so its calls take nothing from the page's budget. */
  let open: Server;
  let base: string;
  let openBase: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let statuses: { url: string; status: number }[];

  const listen = async (server: Server) => {
    await new Promise((resolve) => server.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  };
  const api = <T>(path: string) => getJson<T>(`${openBase}${path}`);
  /** In the page: resolves with performance.now() at the first frame where the whole view shows one state's answer (`viewPart` in its key). */
  const settledAt = (viewPart: string) =>
    page
      .waitForFunction(
        (part) => {
          const results = document.querySelector('[data-testid=results]');
          const ready =
            results?.getAttribute('data-ready') === 'true' &&
            results.getAttribute('data-view')!.includes(part) &&
            document.querySelectorAll('[data-testid=filter-chainId] input').length > 0 &&
            !/…/.test(document.querySelector('[data-testid=totals]')!.textContent!) &&
            (document.querySelectorAll('[data-testid=opportunity-row]').length > 0
              ? document.querySelectorAll('[data-testid=bins-tvl] .bar').length > 0
              : document.querySelector('[data-testid=empty]') !== null);
          return ready ? performance.now() : false;
        },
        viewPart,
        { polling: 'raf', timeout: 15_000 },
      )
      .then((h) => h.jsonValue() as Promise<number>);

  /**
   * Words under `selector` that the layout breaks across lines. A word has no spaces and a hyphen ends
   * it (a line may break after "rate-" as in print, never inside "success"). Each word's rendered
   * boxes are measured: more than one line top means it was split.
   */
  const brokenWords = (selector: string) =>
    page.evaluate((sel) => {
      const out: string[] = [];
      const walker = document.createTreeWalker(document.querySelector(sel)!, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of (node.textContent ?? '').matchAll(/[^\s-]+-?/g)) {
          const range = document.createRange();
          range.setStart(node, m.index!);
          range.setEnd(node, m.index! + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push(m[0]);
        }
      }
      return out;
    }, selector);

  before(async function () {
    demo = await createReferenceDemo();
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    await buildWeb({ outDir: dist });
    const { h } = demo;
    await h.startJobRunner(); // the ops page's "Run now" is answered by a job runner, as under npm start
    limited = h
      .createApp({ webDist: dist, config: { ...h.config, rateLimits: { ...DEFAULT_RATE_LIMITS } } })
      .listen(0, '127.0.0.1');
    base = await listen(limited);
    open = h.createApp({ webDist: dist }).listen(0, '127.0.0.1');
    openBase = await listen(open);
    browser = await leaseBrowser();
  });

  beforeEach(async function () {
    // Each test's page (a new tab, with its own request budget) starts in a fresh rate-limit second: the
    // previous test's page may have spent this one.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = watchErrors(page);
    statuses = [];
    page.on('response', (r) => statuses.push({ url: r.url(), status: r.status() }));
  });

  afterEach(async function () {
    await page?.close();
    expect(errors, 'console errors and uncaught exceptions').to.deep.equal([]);
    expect(
      statuses.filter((s) => s.status === 429),
      'no 429 under the default limits',
    ).to.deep.equal([]);
  });

  after(async () => {
    await browser?.close();
    for (const server of [limited, open])
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (dist) rmSync(dist, { recursive: true, force: true });
    await demo?.close();
  });

  it('fills the view (table, totals, filters, histograms) and settles a filter change with the default rate limit; prints both times', async function () {
    const loads: number[] = [];
    const changes: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(`${base}/`);
      loads.push(await settledAt('"sort"'));
      if (i === 0) {
        // Where the first (cold) load's time goes: document, scripts, API calls (start → end, ms from navigation start).
        const entries = await page.evaluate(() =>
          [performance.getEntriesByType('navigation')[0]!, ...performance.getEntriesByType('resource')].map(
            (e) =>
              `${new URL(e.name).pathname.replace(/^\/assets\/.*/, '/assets/…')} ${e.startTime.toFixed(0)}→${(e.startTime + e.duration).toFixed(0)}`,
          ),
        );
        console.log(`      first load: ${entries.join(', ')}`);
      }
      const change = page.evaluate(() => {
        (document.querySelector('[data-testid=filter-action] input[value=POOL]') as HTMLInputElement).click();
        return performance.now();
      });
      const [clickedAt, settled] = await Promise.all([change, settledAt('"action":"POOL"')]);
      changes.push(settled - clickedAt);
      await page.waitForTimeout(1100); // the next round starts in a fresh rate-limit window
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `      time to filled view (ms, from navigation start): ${loads.map((t) => t.toFixed(0)).join(', ')} (median ${median(loads).toFixed(0)})`,
    );
    console.log(
      `      time to settled filter change (ms, from the click): ${changes.map((t) => t.toFixed(0)).join(', ')} (median ${median(changes).toFixed(0)})`,
    );
    const apiCalls = statuses.filter((s) => new URL(s.url).pathname.startsWith('/v4/'));
    expect(
      apiCalls.length,
      'per round: chains, protocols, programs (#46: the programs filter), then two requests per view (list, summary)',
    ).to.equal(3 * (3 + 2 + 2));
    expect(
      await brokenWords('[data-testid=opportunity-list]'),
      'words broken across lines in the opportunity table at 1280 px',
    ).to.deep.equal([]);
    await screenshot(page, 'explorer-settled');
  });

  it("never shows parts of two states: three filter clicks 300 ms apart, superseded requests cancelled, every frame one state's answer", async function () {
    await page.goto(`${base}/?status=LIVE`);
    await settledAt('"status":"LIVE"');
    // Answers for the in-between states come late, so they are superseded while in flight.
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    const delayed: string[] = [];
    await page.route(/\/v4\/opportunities(\/summary)?\?/, async (route) => {
      const url = route.request().url();
      if (!/action=LEND(%2CPOOL)?(&|$)/.test(url) || /SWAP/.test(url)) return route.continue();
      delayed.push(url);
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => {});
    });
    // Every animation frame: the state the results claim and what they show (a string: tsx would wrap a named function in __name).
    await page.evaluate(`(() => {
      window.samples = [];
      const sample = () => {
        const results = document.querySelector('[data-testid=results]');
        window.samples.push({
          view: results?.getAttribute('data-view') ?? '', ready: results?.getAttribute('data-ready') ?? null,
          count: document.querySelector('[data-testid=total-count]')?.textContent ?? null,
          rows: [...document.querySelectorAll('[data-testid=opportunity-row]')].map((r) => r.getAttribute('data-id')).join(','),
        });
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    })()`);
    for (const action of ['LEND', 'POOL', 'SWAP']) {
      await page.locator(`[data-testid=filter-action] input[value=${action}]`).check();
      await page.waitForTimeout(300);
    }
    await settledAt('"action":"LEND,POOL,SWAP"');
    await page.waitForTimeout(300);
    const samples = await page.evaluate(() => (window as unknown as { samples: Sample[] }).samples);
    expect(delayed.length, 'the in-between states were requested').to.be.greaterThan(0);
    expect(
      failed.filter((u) => delayed.includes(u)).sort(),
      'every delayed in-between request was cancelled',
    ).to.deep.equal([...delayed].sort());
    // Each distinct state shown must be, in every part, that state's own answer.
    const byView = new Map<string, Sample[]>();
    for (const s of samples) byView.set(s.view, [...(byView.get(s.view) ?? []), s]);
    expect(
      [...byView.keys()].filter((v) => /LEND"|LEND,POOL"/.test(v)),
      'the superseded states were never shown',
    ).to.deep.equal([]);
    for (const [view, shown] of byView) {
      if (!view) {
        expect(
          shown.every((s) => s.rows === '' && s.count === '…'),
          'nothing but placeholders before the first answer',
        ).to.equal(true);
        continue;
      }
      const query = new URLSearchParams(
        Object.entries(JSON.parse(view) as Record<string, string | number>).map(([k, v]) => [k, String(v)]),
      );
      const filter = new URLSearchParams(query);
      for (const k of ['sort', 'order', 'page', 'items']) filter.delete(k);
      const [list, summary] = await Promise.all([
        api<{ id: string }[]>(`/v4/opportunities?${query}`),
        api<Summary>(`/v4/opportunities/summary?${filter}`),
      ]);
      const expected = { count: String(summary.count), rows: list.map((o) => o.id).join(',') };
      const mixed = shown.filter((s) => s.count !== expected.count || s.rows !== expected.rows);
      expect(mixed.slice(0, 3), `frames showing ${view} with parts of another state`).to.deep.equal([]);
    }
    expect(samples.length, 'frames sampled').to.be.greaterThan(30);
    await screenshot(page, 'explorer-after-fast-clicks');
  });

  it('searches as you type (debounced: one request for a burst of keys) and at once on Enter', async function () {
    await page.goto(`${base}/`);
    await settledAt('"sort"');
    const before = statuses.length;
    await page.locator('input[name=search]').pressSequentially('demo', { delay: 40 });
    await page.waitForURL(/search=demo/);
    await settledAt('"search":"demo"');
    const searched = statuses
      .slice(before)
      .filter((s) => /\/v4\/opportunities\?/.test(s.url))
      .map((s) => new URL(s.url).searchParams.get('search'));
    expect(searched, 'one list request for the whole word').to.deep.equal(['demo']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'focus stays in the box').to.equal(
      'search',
    );
    await page.locator('input[name=search]').fill('zzzz-no-such-opportunity');
    await page.keyboard.press('Enter');
    await page.waitForURL(/search=zzzz/, { timeout: 200 });
    await eventuallyEquals(() => page.getByTestId('total-count').textContent(), '0', 'no match');
    expect(await page.getByTestId('empty').isVisible()).to.equal(true);
  });

  it('says in plain words which address filter is wrong and offers to remove it; min > max is a warning; ?page=99 shows the last page', async function () {
    // Four views loaded one after another: each starts in a new rate-limit second, as a person's would
    // (the default anonymous limit is 10 requests a second, and each view makes several).
    const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));
    await page.goto(`${base}/?chainId=abc&minimumTvl=xyz&sort=bogus`);
    const notice = page.getByTestId('address-problems');
    await notice.waitFor();
    const text = (await notice.textContent())!;
    for (const part of ['Chains: “abc” is not a chain id', 'Minimum TVL “xyz” is not a number', 'Sort by “bogus”'])
      expect(text).to.include(part);
    expect(text, 'no validator text').to.not.match(/pattern|\^|must match|\\d/);
    await settledAt('"sort"');
    const all = await api<Summary>('/v4/opportunities/summary');
    expect(await page.getByTestId('total-count').textContent(), 'the view is filled, not stuck at …').to.equal(
      String(all.count),
    );
    expect(await page.getByTestId('empty').count()).to.equal(0);
    await screenshot(page, 'explorer-bad-filters');
    await notice.getByRole('button', { name: 'Remove them from the address' }).click();
    await eventuallyEquals(() => page.getByTestId('address-problems').count(), 0, 'notice gone');
    expect(new URL(page.url()).search).to.equal('');

    await nextSecond();
    await page.goto(`${base}/?search=${'x'.repeat(201)}`);
    const refused = page.getByTestId('refused-filter');
    await refused.waitFor();
    expect(await refused.textContent()).to.include('The Search filter has a value the service does not accept.');
    expect(await page.getByTestId('totals').count(), 'no totals of a refused query').to.equal(0);
    await refused.getByRole('button').click();
    await settledAt('"sort"');
    // The refused request itself is logged by the browser; nothing else may be.
    errors.splice(0, errors.length, ...errors.filter((e) => !/status of 400/.test(e)));

    await nextSecond();
    await page.goto(`${base}/?minimumApr=50&maximumApr=10`);
    const warning = page.getByTestId('range-problem');
    await warning.waitFor();
    expect(await warning.textContent()).to.include(
      'The minimum APR (50) is above the maximum (10): no opportunity can match.',
    );
    await screenshot(page, 'explorer-min-above-max');
    await warning.getByRole('button', { name: 'Swap minimum and maximum' }).click();
    await page.waitForURL(/minimumApr=10&maximumApr=50/);
    expect(await page.getByTestId('range-problem').count()).to.equal(0);

    await nextSecond();
    await page.goto(`${base}/?page=99&items=10`);
    const pages = Math.max(1, Math.ceil(all.count / 10));
    await eventuallyEquals(
      () => page.getByTestId('page').textContent(),
      `Page ${pages} of ${pages}`,
      'clamped to the last page',
    );
    expect(new URL(page.url()).searchParams.get('page')).to.equal(pages > 1 ? String(pages - 1) : null);
    expect(await page.locator('[data-testid=opportunity-row]').count()).to.be.greaterThan(0);
  });

  it('stays under the limit when the browser sends what the page started late: a view held back, the next ones sent at once', async function () {
    // What a browser does with more requests than connections: the first view's requests reach the API 1.5 s
    // after the page started them; a filter change and an opened opportunity right after it are sent at
    // once, so all arrive within a few hundred ms. A budget counted by starts (11 in one second here) would
    // let them through together; counted until a second after each answer, no second holds more than 8.
    let holding = true;
    const arrivals: number[] = [];
    await page.route('**/v4/**', async (route) => {
      if (holding) await new Promise((r) => setTimeout(r, 1500));
      arrivals.push(Date.now());
      await route.continue().catch(() => {});
    });
    await page.goto(`${base}/?sort=tvl`);
    await settledAt('"sort":"tvl"');
    holding = false;
    await page.locator('[data-testid=filter-action] input[value=POOL]').check();
    await settledAt('"action":"POOL"');
    await page.locator('[data-testid=opportunity-row] a').first().click();
    await page.getByTestId('history-apr').locator('svg').waitFor();
    await page.getByTestId('history-daily-rewards').locator('svg').waitFor();
    // Any one-second span, not only the API's windows (the bound holds for every span).
    const busiest = Math.max(...arrivals.map((t) => arrivals.filter((u) => u >= t && u < t + 1000).length));
    console.log(`      ${arrivals.length} API requests; at most ${busiest} sent within one second`);
    expect(arrivals.length, 'all three views were requested').to.be.greaterThan(10);
    expect(busiest, 'requests sent within one second').to.be.at.most(8);
  });

  it('labels the histogram axes with bin edges and the detail charts with what they show and the campaign start; chains by name', async function () {
    await page.goto(`${base}/?sort=tvl`);
    await settledAt('"sort":"tvl"');
    const ticks = await page.locator('[data-testid=bins-tvl-axis] .tick').allTextContents();
    expect(ticks.length, 'TVL axis labels').to.be.greaterThan(0);
    expect(ticks.every((t) => /^\$/.test(t))).to.equal(true);
    await page.locator('[data-testid=opportunity-row] a').first().click();
    await page.getByTestId('history-apr').locator('svg').waitFor();
    expect(await page.getByTestId('history-daily-rewards').locator('figcaption').textContent()).to.match(
      /Daily rewards \(USD per day\), average per day.*rewards its live campaigns distribute per day/,
    );
    await page.getByTestId('history-daily-rewards').locator('svg').waitFor();
    // The first campaign's start is marked when it falls inside the charted span (which starts where the data does).
    const openedId = new URL(page.url()).searchParams.get('opportunity')!;
    const opened = (await api<{ id: string; earliestCampaignStart: string }[]>('/v4/opportunities?items=100')).find(
      (o) => o.id === openedId,
    )!;
    const axisFrom = Number(await page.getByTestId('history-apr').getAttribute('data-axis-from'));
    expect(await page.locator('[data-testid=history-apr-marker]').count(), 'campaign start marked').to.equal(
      Number(opened.earliestCampaignStart) >= axisFrom ? 1 : 0,
    );
    await screenshot(page, 'opportunity-labelled');
    await page.locator('[data-testid=campaign-row] a').first().click();
    const known = await api<{ id: number; name: string }[]>('/v4/chains');
    const named = async () => {
      const t = (await page.getByTestId('campaign-chains').textContent()) ?? '';
      return known.some((c) => t.includes(c.name));
    };
    await eventuallyEquals(named, true, 'chains by name');
    const chains = await page.getByTestId('campaign-chains').textContent();
    expect(chains).to.not.match(/compute \d+/);
  });

  it('operations at 1366 px: no word broken inside in the run tables, manual runs marked, a refused token says refused', async function () {
    await page.setViewportSize({ width: 1366, height: 900 });
    // The refused token's second request (dependencies) answers only after the right token is in: its 401 must
    // not sign the right one out (a race seen once under full CI: the page went back to its sign-in form).
    let staleAnswered!: () => void;
    const stale = new Promise<void>((resolve) => (staleAnswered = resolve));
    await page.route('**/v4/internal/dependencies', async (route) => {
      if (route.request().headers()['authorization'] !== 'not-the-token') return route.continue();
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
      staleAnswered();
    });
    await page.goto(`${base}/ops`);
    await page.fill('input[name=token]', 'not-the-token');
    await page.keyboard.press('Enter');
    const refusal = page.locator('.token-form .error');
    await refusal.waitFor();
    expect(await refusal.textContent()).to.match(/refused/);
    expect(await refusal.textContent()).to.not.match(/required/);
    errors.splice(0, errors.length, ...errors.filter((e) => !/status of 401/.test(e))); // the browser logs the refused request itself

    await page.fill('input[name=token]', TEST_BACK_OFFICE_TOKEN);
    await page.keyboard.press('Enter');
    const prices = page.getByTestId('job-prices');
    await prices.waitFor();
    await stale;
    await page.unroute('**/v4/internal/dependencies');
    await page.waitForTimeout(200);
    expect(await page.locator('input[name=token]').count(), 'still signed in after the stale refusal').to.equal(0);
    expect(await page.getByTestId('ops-message').count(), 'no refusal shown').to.equal(0);
    errors.splice(0, errors.length, ...errors.filter((e) => !/status of 401/.test(e)));
    await prices.getByRole('button', { name: 'Run now' }).click();
    await eventuallyEquals(
      () => prices.locator('[data-testid=run-trigger]').first().textContent(),
      'manual',
      'the manual run is marked',
    );
    await page.getByTestId('job-campaigns').getByRole('button', { name: 'Run now' }).click();
    await eventuallyEquals(
      () => page.getByTestId('job-campaigns').locator('[data-testid=run-trigger]').first().textContent(),
      'manual',
      'campaigns run marked',
    );
    const broken = await brokenWords('.jobs');
    expect(broken, 'words broken across lines at 1366 px').to.deep.equal([]);
    const headers = await page.locator('table.runs th').allTextContents();
    expect(headers).to.include.members(['Status', 'Duration']);
    await screenshot(page, 'ops-1366');
  });
});
