import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { formatCount, formatUsdExact } from '../../../web/shared/format.js';
import { eventuallyEquals, leaseBrowser, screenshot, watchErrors } from '../../helpers/browser.js';
import { startDemoWebServer, type DemoWebServer } from '../../helpers/demoWebServer.js';
import { distributedByCampaign, setRewardTokenClose } from '../../helpers/distributedSql.js';
import { getJson } from '../../helpers/getJson.js';

type Stacked = Record<string, Record<string, number>>;
type TopOpportunity = { opportunityId: string; name: string | null; usd: number; campaigns: number };

const CHAIN = 31337;
const PRICE = 2.5;
const VIEWPORTS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * The explorer's analytics view (issue #33) on the demo, in Chromium at 1366 and 390 px: every
 * figure it shows is what the routes answer (the distributed total also recomputed in plain SQL
 * from the stored trees), the chain/protocol toggle restacks both charts and stays in the URL, and
 * a top opportunity opens its view.
 */
describe('explorer: analytics view, in Chromium at 1366 and 390 px (#33)', function () {
  let web: DemoWebServer;
  let base: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  /** Console lines a test expects (the browser logs an error status it was answered). */
  let expectedConsole: RegExp | null = null;

  const api = <T>(path: string) => getJson<T>(`${base}${path}`);

  /** The rows of a chart's table: (month, key, value, text shown); a month's total has no key. */
  const tableOf = (testId: string) =>
    page.locator(`[data-testid=${testId}-table] tbody tr`).evaluateAll((rows) =>
      rows.map((r) => ({
        period: r.getAttribute('data-period') ?? '',
        key: r.getAttribute('data-key'),
        value: Number(r.getAttribute('data-value') ?? r.getAttribute('data-total')),
        text: r.querySelector('td.num')?.textContent ?? '',
      })),
    );

  /** A chart shows the route's answer: each figure of its table and bars exactly, each month's total. */
  async function expectChart(testId: string, answer: Stacked, format: (v: number) => string) {
    const expected = Object.entries(answer).flatMap(([period, values]) =>
      Object.entries(values).map(([key, value]) => ({ period, key, value, text: format(value) })),
    );
    const byCell = (a: { period: string; key: string | null }, b: typeof a) =>
      a.period.localeCompare(b.period) || (a.key ?? '').localeCompare(b.key ?? '');
    const shown = await tableOf(testId);
    expect(shown.filter((r) => r.key !== null).sort(byCell), testId).to.deep.equal(expected.sort(byCell));
    const totals = shown.filter((r) => r.key === null);
    expect(
      totals.map((t) => t.period),
      `${testId} months`,
    ).to.deep.equal(Object.keys(answer).sort());
    for (const t of totals) {
      const sum = Object.values(answer[t.period]!).reduce((s, v) => s + v, 0);
      expect(t.value, `${testId} ${t.period} total`).to.be.closeTo(sum, 1e-9 * Math.max(1, sum));
    }
    const bars = await page.locator(`[data-testid=${testId}] svg rect.segment`).evaluateAll((rects) =>
      rects.map((r) => ({
        period: r.getAttribute('data-period') ?? '',
        key: r.getAttribute('data-key'),
        value: Number(r.getAttribute('data-value')),
      })),
    );
    expect(bars.sort(byCell), `${testId} bars`).to.deep.equal(
      expected.filter((e) => e.value > 0).map(({ text: _text, ...e }) => e),
    );
  }

  before(async function () {
    web = await startDemoWebServer();
    base = web.base;
    await setRewardTokenClose(web.demo.h.deps.pg, CHAIN, PRICE);
    browser = await leaseBrowser();
  });

  afterEach(async function () {
    await page?.close();
    const unexpected = expectedConsole ? errors.filter((e) => !expectedConsole!.test(e)) : errors;
    expectedConsole = null;
    expect(unexpected, 'console errors and uncaught exceptions').to.deep.equal([]);
  });

  after(async () => {
    await browser?.close();
    await web?.close();
  });

  for (const viewport of VIEWPORTS) {
    it(`${viewport.name}: shows the routes' monthly figures stacked by chain, then by protocol, and the top opportunities linking to their view`, async function () {
      page = await browser.newPage({ viewport });
      errors = watchErrors(page);
      await page.goto(`${base}/`);
      await page.getByTestId('nav-analytics').click();
      await page.waitForURL((u) => u.search === '?view=analytics');
      const view = page.getByTestId('analytics');
      await page.locator('[data-testid=analytics][data-stack=chain]').waitFor();
      expect(await page.title()).to.match(/^Analytics: .* by chain – Campaign rewards explorer$/);
      expect(await page.getByTestId('nav-analytics').getAttribute('aria-current')).to.equal('page');

      // Totals: the routes' figures; the distributed one recomputed from PostgreSQL as well.
      const sqlTotal = (await distributedByCampaign(web.demo.h.deps.pg, CHAIN, PRICE)).reduce((s, c) => s + c.usd, 0);
      expect(sqlTotal, 'USD distributed on the demo').to.be.greaterThan(0);
      const routeTotal = await api<number>('/v4/rewards/total/distributed');
      expect(routeTotal).to.be.closeTo(sqlTotal, 1e-6 * sqlTotal);
      await page.locator('[data-testid=analytics-distributed-total][data-value]').waitFor();
      const shownTotal = page.getByTestId('analytics-distributed-total');
      expect(Number(await shownTotal.getAttribute('data-value'))).to.be.closeTo(sqlTotal, 1e-6 * sqlTotal);
      expect(await shownTotal.textContent()).to.equal(formatUsdExact(routeTotal));
      const campaigns = await api<number>('/v4/campaigns/count');
      expect(await page.getByTestId('analytics-campaigns-total').textContent()).to.equal(formatCount(campaigns));

      const byChain = {
        distributed: await api<Stacked>('/v4/rewards/total/distributed/by-chains?grain=month'),
        counts: await api<Stacked>('/v4/campaigns/count/by-chains?grain=month'),
      };
      await expectChart('analytics-distributed', byChain.distributed, formatUsdExact);
      await expectChart('analytics-campaigns', byChain.counts, formatCount);
      const monthSum = Object.values(byChain.distributed).reduce(
        (s, m) => s + Object.values(m).reduce((a, v) => a + v, 0),
        0,
      );
      expect(monthSum, 'months by chain add up to the total').to.be.closeTo(sqlTotal, 1e-6 * sqlTotal);
      expect(await view.getByText('Stack the months by').isVisible()).to.equal(true);
      await screenshot(page, `analytics-chain-${viewport.name}`);

      // Stacked by protocol: other stacks, in the URL (a reload shows the same view).
      await page.getByRole('radio', { name: 'protocol' }).check();
      await page.waitForURL((u) => u.search === '?view=analytics&stack=protocol');
      await page.locator('[data-testid=analytics][data-stack=protocol]').waitFor();
      const byProtocol = {
        distributed: await api<Stacked>('/v4/rewards/total/distributed/by-protocols?grain=month'),
        counts: await api<Stacked>('/v4/campaigns/count/by-protocols?grain=month'),
      };
      await expectChart('analytics-distributed', byProtocol.distributed, formatUsdExact);
      await expectChart('analytics-campaigns', byProtocol.counts, formatCount);
      const keysOf = (s: Stacked) => [...new Set(Object.values(s).flatMap((m) => Object.keys(m)))].sort();
      expect(keysOf(byProtocol.distributed), 'the stacks change').to.not.deep.equal(keysOf(byChain.distributed));
      expect(keysOf(byProtocol.distributed).length, 'protocols that distributed').to.be.greaterThan(1);
      const legend = await page
        .locator('[data-testid=analytics-distributed-legend] li')
        .evaluateAll((items) => items.map((li) => li.getAttribute('data-key')));
      expect([...legend].sort()).to.deep.equal(keysOf(byProtocol.distributed));
      await page.reload();
      await page.locator('[data-testid=analytics][data-stack=protocol]').waitFor();
      expect(await page.getByRole('radio', { name: 'protocol' }).isChecked()).to.equal(true);
      expect(await page.title()).to.match(/by protocol – /);

      // Readable on a phone: nothing wider than the screen, chart text 11 px or more.
      expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(viewport.width);
      const sizes = await page.locator('[data-testid=analytics] svg text').evaluateAll((texts) =>
        texts.map((t) => {
          const svg = (t as SVGTextElement).ownerSVGElement!;
          return (
            (Number.parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width) /
            svg.viewBox.baseVal.width
          );
        }),
      );
      expect(Math.min(...sizes), 'chart text size').to.be.at.least(11);
      await page.locator('[data-testid=analytics-distributed] details summary').click();
      await screenshot(page, `analytics-protocol-${viewport.name}`);

      // The top opportunities: the route's, in its order, each linking to the opportunity's view.
      const top = await api<TopOpportunity[]>('/v4/rewards/total/distributed/by-opportunities?items=10');
      expect(top.length).to.be.greaterThan(1);
      const rows = page.getByTestId('top-opportunity-row');
      await eventuallyEquals(
        () => rows.evaluateAll((r) => r.map((x) => x.getAttribute('data-id'))),
        top.map((o) => o.opportunityId),
        'top rows',
      );
      expect(await rows.locator('td.num:last-child').allTextContents()).to.deep.equal(
        top.map((o) => formatUsdExact(o.usd)),
      );
      const first = top[0]!;
      await page.getByTestId('top-opportunities').scrollIntoViewIfNeeded();
      await screenshot(page, `analytics-top-${viewport.name}`);
      await rows.first().getByTestId('top-opportunity-link').click();
      await page.getByTestId('opportunity-detail').waitFor();
      expect(new URL(page.url()).searchParams.get('opportunity')).to.equal(first.opportunityId);
      expect(await page.locator('[data-testid=opportunity-detail] h2').textContent()).to.include(first.name!);
      // Back comes to the analytics view as it was left, and says so.
      expect(await page.getByTestId('back').textContent()).to.equal('← Back to analytics');
      await page.getByTestId('back').click();
      await page.locator('[data-testid=analytics][data-stack=protocol]').waitFor();
    });
  }

  it('says so when the routes answer nothing yet, or fail', async function () {
    page = await browser.newPage({ viewport: VIEWPORTS[1] });
    errors = watchErrors(page);
    // Nothing distributed or created yet: what the routes answer on a fresh stack.
    await page.route(/\/v4\/(rewards\/total\/distributed|campaigns\/count)/, (route) => {
      const by = /\/by-opportunities/.test(route.request().url()) ? [] : /\/by-/.test(route.request().url()) ? {} : 0;
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(by) });
    });
    await page.goto(`${base}/?view=analytics`);
    await page.getByTestId('top-empty').waitFor();
    expect(await page.getByTestId('analytics-distributed').textContent()).to.include('No rewards distributed yet');
    expect(await page.getByTestId('analytics-campaigns').textContent()).to.include('No campaigns yet');
    expect(await page.getByTestId('analytics-distributed-total').textContent()).to.equal('$0');
    await page.unrouteAll();
    // Elasticsearch unavailable: the API's 503, said in the view (the browser logs the status).
    expectedConsole = /Failed to load resource: the server responded with a status of 503/;
    await page.route(/\/v4\/(rewards\/total\/distributed|campaigns\/count)/, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({ title: 'Service Unavailable', status: 503, detail: 'elasticsearch is unavailable' }),
      }),
    );
    await page.reload();
    await page.getByTestId('load-error').waitFor();
    expect(await page.getByTestId('load-error').textContent()).to.include('elasticsearch is unavailable');
    expect(await page.getByTestId('top-load-error').getAttribute('role')).to.equal('alert');
    await screenshot(page, 'analytics-error-phone');
  });
});
