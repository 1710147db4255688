import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventuallyEquals, leaseBrowser, screenshot, watchErrors } from '../../helpers/browser.js';
import { startDemoWebServer, type DemoWebServer } from '../../helpers/demoWebServer.js';
import { getJson } from '../../helpers/getJson.js';

type Bin = { min: number; max: number; count: number };
type Chain = { explorers: { url: string }[] };
type Opportunity = {
  id: string;
  type: string;
  name: string;
  depositUrl: string;
  explorerAddress: string;
  chain: Chain;
};
type Campaign = { id: string; campaignId: string; opportunityId: string; params: Record<string, unknown> };

const SITE = 'Campaign rewards explorer';

/**
 * Issue 31, items 7, 8 and 9 (explorer): the explorer used by keyboard (skip link, focus on open
 * and on return, titles, sortable headers), its detail pages (deposit and block-explorer links,
 * decoded campaign parameters, Back from a campaign), empty results and bad ids in plain words,
 * and compact cards on a phone. Demo data, real API, Chromium.
 */
describe('explorer navigation: keyboard, titles, sorting, detail links and phone cards (Chromium)', function () {
  let web: DemoWebServer;
  let base: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  const api = <T>(path: string) => getJson<T>(`${base}${path}`);
  const rowIds = () =>
    page.locator('[data-testid=opportunity-row]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
  /** What has the focus: tag, text and the attributes the tests name it by. */
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return {
        tag: el?.tagName.toLowerCase() ?? null,
        text: el?.textContent?.trim() ?? '',
        openId: el?.getAttribute('data-open-id') ?? null,
        headingFor: el?.getAttribute('data-heading-for') ?? null,
        inRow: !!el?.closest('[data-testid=opportunity-row]'),
      };
    });
  /** Waits until the focused element has `attr` = `value` (a function, not a string: the page's CSP forbids eval). */
  const waitForFocus = (attr: string, value: string, what: string) =>
    page
      .waitForFunction(([a, v]) => document.activeElement?.getAttribute(a!) === v, [attr, value], { timeout: 10_000 })
      .catch(async () => expect.fail(`${what}: focus is on ${JSON.stringify(await focused())}`));

  before(async function () {
    web = await startDemoWebServer();
    base = web.base;
    browser = await leaseBrowser();
  });

  beforeEach(async function () {
    page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    errors = watchErrors(page);
  });

  /** Console errors a test expects (set by the test, reset after it). */
  let expectedConsole: RegExp | null = null;

  afterEach(async function () {
    await page?.close();
    const unexpected = errors.filter((e) => !expectedConsole?.test(e));
    expectedConsole = null;
    expect(unexpected, 'console errors and uncaught exceptions').to.deep.equal([]);
  });

  after(async () => {
    await browser?.close();
    await web?.close();
  });

  it('keyboard: the skip link reaches the first result in a few Tabs; opening moves focus to the heading, Back returns it to the result; titles follow the view', async function () {
    const list = await api<Opportunity[]>('/v4/opportunities');
    const count = await api<number>('/v4/opportunities/count');
    await page.goto(`${base}/`);
    await eventuallyEquals(
      rowIds,
      list.map((o) => o.id),
      'list',
    );
    await eventuallyEquals(() => page.title(), `${count} opportunities – ${SITE}`, 'search title');

    await page.keyboard.press('Tab');
    expect((await focused()).text, 'first Tab: the skip link').to.equal('Skip to results');
    await page.keyboard.press('Enter');
    let tabs = 1;
    while (!(await focused()).inRow && tabs < 60) {
      await page.keyboard.press('Tab');
      tabs++;
    }
    expect((await focused()).openId, 'the first result has the focus').to.equal(list[0]!.id);
    expect(
      tabs,
      'Tabs from the top of the page to the first result (skip link, the sort headers, the result)',
    ).to.be.at.most(5);

    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`opportunity=${list[0]!.id}`));
    await waitForFocus('data-heading-for', `opportunity:${list[0]!.id}`, 'focus on the opportunity heading');
    expect((await focused()).tag).to.equal('h2');
    expect((await focused()).text).to.include(list[0]!.name);
    await eventuallyEquals(() => page.title(), `${list[0]!.name} – ${SITE}`, 'opportunity title');

    // The page's own Back link, by keyboard: the result that was opened has the focus again.
    await page.getByTestId('back').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => !u.search.includes('opportunity='));
    await waitForFocus('data-open-id', `${list[0]!.id}`, 'focus back on the opened result');
    await eventuallyEquals(() => page.title(), `${count} opportunities – ${SITE}`, 'search title again');

    // The browser's Back button does the same, from the second result.
    const second = page.locator(`a[data-open-id="${list[1]!.id}"]`);
    await second.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`opportunity=${list[1]!.id}`));
    await waitForFocus('data-heading-for', `opportunity:${list[1]!.id}`, 'focus on the second heading');
    await page.goBack();
    await waitForFocus('data-open-id', `${list[1]!.id}`, 'focus back on the second result');
  });

  it('sorting: TVL, APR and daily-rewards headers sort through the API (aria-sort, keyboard, kept in the URL)', async function () {
    await page.goto(`${base}/`);
    await page.locator('[data-testid=opportunity-row]').first().waitFor();
    const header = (sort: string) => page.locator(`th[data-sort=${sort}]`);
    expect(await header('apr').getAttribute('aria-sort'), 'default sort is by newest campaign').to.equal(null);

    await header('apr').locator('button').click();
    await page.waitForURL(/sort=apr/);
    expect(new URL(page.url()).searchParams.get('order') ?? 'desc').to.equal('desc');
    const desc = await api<{ id: string }[]>('/v4/opportunities?sort=apr&order=desc');
    await eventuallyEquals(
      rowIds,
      desc.map((o) => o.id),
      'rows by APR, highest first',
    );
    expect(await header('apr').getAttribute('aria-sort')).to.equal('descending');
    expect(await header('tvl').getAttribute('aria-sort')).to.equal(null);

    await header('apr').locator('button').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/order=asc/);
    const asc = await api<{ id: string }[]>('/v4/opportunities?sort=apr&order=asc');
    await eventuallyEquals(
      rowIds,
      asc.map((o) => o.id),
      'rows by APR, lowest first',
    );
    await page.reload();
    await eventuallyEquals(() => header('apr').getAttribute('aria-sort'), 'ascending', 'sort kept across a reload');
    expect(await page.locator('select[name=sort]').inputValue(), 'the filter panel shows the same sort').to.equal(
      'apr',
    );

    await header('rewards').locator('button').press('Space');
    await page.waitForURL((u) => u.searchParams.get('sort') === 'rewards' && !u.searchParams.has('order'));
    const rewards = await api<{ id: string }[]>('/v4/opportunities?sort=rewards&order=desc');
    await eventuallyEquals(
      rowIds,
      rewards.map((o) => o.id),
      'rows by daily rewards',
    );
    expect(await header('rewards').getAttribute('aria-sort')).to.equal('descending');
  });

  it('results: one result is "1 opportunity", an empty one says no results (no "– – –"), bars outside the range filter are not drawn', async function () {
    const [one] = await api<Opportunity[]>('/v4/opportunities?items=1&sort=tvl');
    const matches = await api<number>(`/v4/opportunities/count?search=${encodeURIComponent(one!.name)}`);
    await page.goto(`${base}/?search=${encodeURIComponent(one!.name)}`);
    await eventuallyEquals(() => page.getByTestId('total-count').textContent(), String(matches), 'count');
    // The title follows the count in an effect after the render that shows it: wait for it too.
    const counted = matches === 1 ? /^1 opportunity: / : /^\d+ opportunities: /;
    await eventuallyEquals(async () => counted.test(await page.title()), true, 'the title with the count');
    const title = await page.title();
    expect(title).to.match(counted);
    expect(title).to.include(`“${one!.name}”`);
    const labels = await page
      .locator('[data-testid=bins-apr] .bar')
      .evaluateAll((bars) => bars.map((b) => b.getAttribute('aria-label')));
    expect(labels.filter((l) => / 1 opportunities/.test(l ?? ''))).to.deep.equal([]);
    expect(labels.some((l) => /: 1 opportunity$/.test(l ?? ''))).to.equal(true);

    await page.goto(`${base}/?search=nothing-matches-this`);
    await page.getByTestId('empty').waitFor();
    expect(await page.getByTestId('apr-range').textContent()).to.equal('no results');
    expect(await page.getByTestId('totals').textContent()).to.not.match(/–\s*–/);
    expect(await page.locator('.histograms').isVisible(), 'no empty histograms').to.equal(false);
    await eventuallyEquals(() => page.title(), `0 opportunities: “nothing-matches-this” – ${SITE}`, 'empty title');

    const minimum = 15_000_000;
    const summary = await api<{ bins: { tvl: Bin[] } }>(`/v4/opportunities/summary?minimumTvl=${minimum}`);
    const inRange = summary.bins.tvl.filter((b, i) => i === summary.bins.tvl.length - 1 || b.max > minimum);
    expect(inRange.length, 'the API has bins below the minimum').to.be.lessThan(summary.bins.tvl.length);
    await page.goto(`${base}/?minimumTvl=${minimum}`);
    await eventuallyEquals(
      () =>
        page
          .locator('[data-testid=bins-tvl] .bar')
          .evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('data-count')))),
      inRange.map((b) => b.count),
      'TVL bars: only those the minimum leaves',
    );
  });

  it('detail pages: deposit and block-explorer links, campaign ids with copy buttons, decoded parameters once, Back from a campaign to its opportunity', async function () {
    // The largest one with a deposit link. A pool or market has one even when its campaign data carries
    // no URL (a Morpho Blue market's: its page on the Morpho app), and is named after its tokens (#42).
    const top = await api<Opportunity[]>('/v4/opportunities?sort=tvl&items=20');
    const markets = top.filter((x) => ['CLAMM', 'UNISWAP_V4', 'MORPHO'].includes(x.type));
    expect(markets.length, 'pools and markets among the largest').to.be.greaterThan(0);
    for (const m of markets) {
      expect(m.depositUrl, `${m.type} deposit link`).to.match(/^https?:/);
      expect(m.name, `${m.type} named after its tokens, not its address or id`).to.not.match(/0x[0-9a-f]{4}…/);
    }
    // A token-holding one: its campaign's decoded parameters link a target token (below).
    const first = top.find((x) => /^https?:/.test(x.depositUrl) && !markets.includes(x));
    expect(first, 'a demo opportunity with a deposit URL').to.not.equal(undefined);
    const o = await api<Opportunity & { campaigns: Campaign[] }>(`/v4/opportunities/${first!.id}/campaigns`);
    expect(o.depositUrl, 'the demo opportunity has a deposit URL').to.match(/^https?:/);
    await page.goto(`${base}/?sort=tvl&opportunity=${o.id}`);
    await page.getByTestId('opportunity-detail').waitFor();
    expect(await page.getByTestId('deposit-link').getAttribute('href')).to.equal(new URL(o.depositUrl).href);
    // The devnet has no block explorer (#44: its RPC URL was given as one): no "on the block explorer" link.
    expect(o.chain.explorers, 'the demo chain has no block explorer').to.deep.equal([]);
    expect(await page.getByTestId('explorer-link').count()).to.equal(0);
    await eventuallyEquals(
      () => page.locator('[data-testid=campaign-row]').count(),
      o.campaigns.length,
      'campaign rows',
    );
    const rowText = await page.getByTestId('campaign-list').textContent();
    for (const c of o.campaigns)
      expect(rowText, 'short ids, not 10-character prefixes').to.include(
        `${c.campaignId.slice(0, 6)}…${c.campaignId.slice(-4)}`,
      );
    const copies = await page
      .locator('[data-testid=campaign-row] [data-testid=copy]')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-copy')));
    expect(copies, 'a copy button per campaign, with the whole id').to.have.members(
      o.campaigns.map((c) => c.campaignId),
    );
    await screenshot(page, 'issue31-opportunity-1366');

    // Open a campaign by keyboard: focus on its heading, title with its name, Back to the opportunity.
    const opener = page.locator('[data-testid=campaign-row] a[data-open-id]').first();
    const campaignId = await opener.getAttribute('data-open-id');
    await opener.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`campaign=${campaignId}`));
    await waitForFocus('data-heading-for', `campaign:${campaignId}`, 'focus on the campaign heading');
    const c = await api<Campaign>(`/v4/campaigns/${campaignId}`);
    const heading = (await focused()).text;
    await eventuallyEquals(
      () => page.title(),
      `${heading.replace(/\s*(LIVE|SOON|PAST)$/, '')} on ${o.name} – ${SITE}`,
      'campaign title',
    );
    expect(await page.getByTestId('campaign-id').textContent()).to.include(`${c.campaignId.slice(0, 6)}…`);
    expect(await page.getByTestId('campaign-id').locator('[data-testid=copy]').getAttribute('data-copy')).to.equal(
      c.campaignId,
    );

    // Parameters as decoded by the API, one row each; the raw encoding once, folded.
    const raw = c.params['campaignData'] as string;
    const decodedKeys = Object.keys(c.params).filter((k) => k !== 'campaignData');
    expect(
      await page
        .locator('[data-testid=campaign-params] tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key'))),
    ).to.have.members(decodedKeys);
    const targetToken = c.params['targetToken'] as string;
    // No explorer on the devnet: the address is shown (short, full on hover, with a copy button), not linked.
    const target = page.locator('[data-testid=campaign-params] tr[data-key=targetToken]');
    expect(await target.locator('a').count()).to.equal(0);
    expect(await target.locator('[data-testid=copy]').getAttribute('data-copy')).to.equal(targetToken);
    const body = (await page.locator('main').textContent()) ?? '';
    expect(body.split(raw.slice(2, 66)).length - 1, 'the raw campaign data appears once').to.equal(1);
    expect(await page.getByTestId('raw-campaign-data').getAttribute('open'), 'folded').to.equal(null);
    await screenshot(page, 'issue31-campaign-1366');

    const back = page.getByTestId('back');
    expect(await back.textContent()).to.equal(`← Back to ${o.name}`);
    await back.click();
    await page.waitForURL(new RegExp(`opportunity=${o.id}`));
    expect(new URL(page.url()).searchParams.get('sort'), 'the list state travels along').to.equal('tvl');
    await waitForFocus('data-open-id', `${campaignId}`, 'focus back on the campaign that was opened');
    // And Back once more reaches the list the opportunity was opened from.
    await page.getByTestId('back').click();
    await page.waitForURL((u) => u.search === '?sort=tvl');
  });

  it('bad or unknown ids say so in plain words, never with the API pattern', async function () {
    // The API's 400 and 404 answers are expected here (the browser logs them as it gets them), not page errors.
    expectedConsole = /Failed to load resource: the server responded with a status of (400|404)/;
    for (const [query, expected] of [
      ['campaign=abc', /^This campaign id is not valid: “abc”\. A campaign id is a number/],
      ['opportunity=abc', /^This opportunity id is not valid: “abc”\./],
      ['campaign=123', /^There is no campaign with the id “123”\.$/],
    ] as const) {
      await page.goto(`${base}/?${query}`);
      const message = (await page.getByTestId('load-error').textContent()) ?? '';
      expect(message, query).to.match(expected);
      expect(message, query).to.not.match(/pattern|\^\(|\[0-9\]/);
    }
    // The title follows the message in an effect of the same render: wait for it rather than race it.
    await page
      .waitForFunction((title) => document.title === title, `Campaign not found – ${SITE}`, { timeout: 5000 })
      .catch(() => {});
    expect(await page.title()).to.equal(`Campaign not found – ${SITE}`);
  });

  it('phone (390 px): each result is a card of at most four lines; search and detail fit the width', async function () {
    await page.close();
    page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    errors = watchErrors(page);
    await page.goto(`${base}/`);
    await page.locator('[data-testid=opportunity-row]').first().waitFor();
    const cards = await page.locator('[data-testid=opportunity-row]').evaluateAll((rows) =>
      rows.map((r) => {
        const line = Number.parseFloat(getComputedStyle(r.querySelector('td.name')!).lineHeight) || 20;
        return { height: r.getBoundingClientRect().height, line, text: r.textContent };
      }),
    );
    expect(cards.length).to.be.greaterThan(10);
    for (const [i, card] of cards.entries())
      expect(card.height, `card ${i} (${card.text}): at most ~4 lines of ${card.line}px`).to.be.at.most(
        4 * card.line + 16,
      );
    const tallest = Math.max(...cards.map((c) => c.height));
    expect(20 * (tallest + 8), '20 results stay well under 6,500 px').to.be.below(2_200);
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(390);
    await screenshot(page, 'issue31-search-390');
    await page.locator('[data-testid=opportunity-row] a').first().click();
    await page.getByTestId('opportunity-detail').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(390);
    await screenshot(page, 'issue31-opportunity-390');
  });

  it('wide (1366 px): screenshots of the search view', async function () {
    await page.goto(`${base}/`);
    await page.locator('[data-testid=opportunity-row]').first().waitFor();
    await page.locator('[data-testid=bins-tvl] .bar').first().waitFor();
    await screenshot(page, 'issue31-search-1366');
  });
});
