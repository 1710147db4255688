import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { writeDemoHistory } from '../../../scripts/demoHistory.js';
import { eventuallyEquals, leaseBrowser, screenshot, watchErrors } from '../../helpers/browser.js';
import { startDemoWebServer, type DemoWebServer } from '../../helpers/demoWebServer.js';
import { getJson } from '../../helpers/getJson.js';

type Campaign = { id: string; startTimestamp: string; endTimestamp: string; opportunityId: string };
type Opportunity = { id: string; unpricedRewardTokens?: string[] };

const DAY_MS = 86_400_000;
const VIEWPORTS = [
  { name: 'desktop', width: 1366, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * The explorer on the demo with 18 days of history (snapshots every 12 h, as `npm start` writes them
 * since its earliest campaign): reward tokens without a price read "no price", history charts start
 * where their data starts with readable axis text, and a past campaign shows the history of its window.
 */
describe('explorer: unpriced figures and history charts, in Chromium at 1366 and 390 px (#31)', function () {
  let web: DemoWebServer;
  let base: string;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  const api = <T>(path: string) => getJson<T>(`${base}${path}`);
  /** Rendered pixel size of every text of a chart's drawing. */
  const textSizes = (testId: string) =>
    page.locator(`[data-testid=${testId}] svg text`).evaluateAll((texts) =>
      texts.map((t) => {
        const svg = (t as SVGTextElement).ownerSVGElement!;
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return Number.parseFloat(getComputedStyle(t).fontSize) * scale;
      }),
    );

  before(async function () {
    web = await startDemoWebServer();
    base = web.base;
    await writeDemoHistory(web.demo.h.deps, { fromMs: Date.now() - 18 * DAY_MS, stepMs: DAY_MS / 2 });
    browser = await leaseBrowser();
  });

  afterEach(async function () {
    await page?.close();
    expect(errors, 'console errors and uncaught exceptions').to.deep.equal([]);
  });

  after(async () => {
    await browser?.close();
    await web?.close();
  });

  for (const viewport of VIEWPORTS) {
    it(`${viewport.name}: figures leaving out an unpriced reward token read "no price", never 0 % or $0`, async function () {
      page = await browser.newPage({ viewport });
      errors = watchErrors(page);
      const listed = await api<Opportunity[]>('/v4/opportunities?items=100&status=LIVE');
      const unpriced = listed.filter((o) => o.unpricedRewardTokens?.length);
      expect(unpriced.length, 'LIVE opportunities with an unpriced (pre-TGE) reward token').to.be.greaterThan(0);

      await page.goto(`${base}/?status=LIVE&items=100`);
      await page.locator('[data-testid=opportunity-row]').first().waitFor();
      for (const o of unpriced) {
        const row = page.locator(`[data-testid=opportunity-row][data-id="${o.id}"]`);
        await eventuallyEquals(
          () => row.locator('[data-testid=unpriced]').count(),
          2,
          `${o.id}: APR and daily rewards`,
        );
        for (const text of await row.locator('[data-testid=unpriced]').allTextContents())
          expect(text, o.id).to.match(/no price$/);
      }
      await screenshot(page, `unpriced-list-${viewport.name}`);

      const id = unpriced[0]!.id;
      await page.goto(`${base}/?opportunity=${encodeURIComponent(id)}`);
      await page.getByTestId('opportunity-detail').waitFor();
      expect(await page.getByTestId('opportunity-apr').textContent()).to.match(/no price$/);
      expect(await page.getByTestId('opportunity-daily-rewards').textContent()).to.match(/no price$/);
      const campaigns = await api<{ campaigns: (Campaign & { unpricedRewardTokens?: string[] })[] }>(
        `/v4/opportunities/${id}/campaigns`,
      );
      const unpricedCampaigns = campaigns.campaigns.filter((c) => c.unpricedRewardTokens?.length).length;
      expect(unpricedCampaigns).to.be.greaterThan(0);
      // Each unpriced campaign row: APR and daily rewards read "no price".
      expect(await page.locator('[data-testid=campaign-row] [data-testid=unpriced]').allTextContents()).to.deep.equal(
        Array(2 * unpricedCampaigns).fill('no price'),
      );
      await page.getByTestId('opportunity-apr').scrollIntoViewIfNeeded();
      await screenshot(page, `unpriced-opportunity-${viewport.name}`);
    });

    it(`${viewport.name}: history charts start where the data starts, with text of 11 px or more and captions that say what they show`, async function () {
      page = await browser.newPage({ viewport });
      errors = watchErrors(page);
      const listed = await api<(Opportunity & { earliestCampaignStart: string })[]>('/v4/opportunities?items=100');
      const opp = listed.find((o) => Number(o.earliestCampaignStart) < Date.now() / 1000 - 19 * 86_400)!;
      expect(opp, 'an opportunity whose first campaign started before its history').to.not.equal(undefined);
      await page.goto(`${base}/?opportunity=${encodeURIComponent(opp.id)}&grain=day`);
      await page.getByTestId('history-apr').locator('svg').waitFor();
      for (const [testId, kind] of [
        ['history-apr', 'apr'],
        ['history-tvl', 'tvl'],
        ['history-daily-rewards', 'daily-rewards'],
      ] as const) {
        const records = await api<{ timestamp: string }[]>(
          `/v4/opportunities/${opp.id}/${kind}-records?grain=day&items=100`,
        );
        expect(records.length, `${kind} records`).to.be.greaterThan(10);
        const oldest = Math.min(...records.map((r) => Number(r.timestamp)));
        const chart = page.getByTestId(testId);
        await chart.locator('svg').waitFor();
        await eventuallyEquals(() => chart.getAttribute('data-points'), String(records.length), `${testId} points`);
        expect(Number(await chart.getAttribute('data-axis-from')), `${testId} axis start`).to.equal(oldest);
        expect(await chart.locator('.axis-from').textContent()).to.equal(
          new Date(oldest * 1000).toISOString().slice(0, 10),
        );
        const sizes = await textSizes(testId);
        expect(Math.min(...sizes), `${testId} text sizes ${sizes.map((s) => s.toFixed(1)).join(', ')}`).to.be.at.least(
          11,
        );
        expect(await chart.locator('figcaption').textContent(), `${testId} caption`).to.not.match(
          /\/v4|records|\/campaigns|\{id\}/,
        );
      }
      expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(viewport.width);
      await page.getByTestId('history-apr').scrollIntoViewIfNeeded();
      await screenshot(page, `history-opportunity-${viewport.name}`);

      // A past campaign: the history of its live window, not "No history yet".
      const campaigns = await api<{ campaigns: Campaign[] }>(`/v4/opportunities/${opp.id}/campaigns`);
      const pastOnes = campaigns.campaigns.filter((c) => Number(c.endTimestamp) < Date.now() / 1000);
      expect(pastOnes.length, 'past campaigns').to.be.greaterThan(0);
      const withHistory = await Promise.all(
        pastOnes.map(async (c) => ({
          c,
          metrics: await api<{ aprRecords: unknown[] }>(
            `/v4/campaigns/${c.id}/metrics?apr[limit]=1000&tvl[limit]=1000&dailyRewards[limit]=1000`,
          ),
        })),
      );
      const { c: past, metrics } = withHistory.find((x) => x.metrics.aprRecords.length > 5)!;
      expect(past, 'a past campaign with APR snapshots').to.not.equal(undefined);
      await page.goto(`${base}/?campaign=${encodeURIComponent(past.id)}`);
      await page.getByTestId('campaign-detail').waitFor();
      const chart = page.getByTestId('campaign-apr');
      await chart.locator('svg').waitFor();
      expect(await chart.getAttribute('data-points')).to.equal(String(metrics.aprRecords.length));
      expect(await chart.textContent()).to.not.include('No history yet');
      expect(Math.min(...(await textSizes('campaign-apr')))).to.be.at.least(11);
      await chart.scrollIntoViewIfNeeded();
      await screenshot(page, `history-past-campaign-${viewport.name}`);
    });
  }

  it('an opportunity page shows the native APR when known, else "unknown" with its reason, never a 0 % that reads as no yield (#42)', async function () {
    page = await browser.newPage({ viewport: VIEWPORTS[0] });
    errors = watchErrors(page);
    type Native = Opportunity & {
      type: string;
      nativeApr: number;
      nativeAprRecord: { status: string; description: string };
    };
    const listed = await api<Native[]>('/v4/opportunities?items=100');
    const known = listed.find((o) => o.type === 'MORPHO' && o.nativeAprRecord.status === 'ok');
    const unknown = listed.find((o) => o.nativeAprRecord.status !== 'ok' && o.nativeApr === 0);
    expect(known, 'a Morpho Blue market with a read supply APR').to.not.equal(undefined);
    expect(unknown, 'an opportunity whose native APR is not known').to.not.equal(undefined);

    await page.goto(`${base}/?opportunity=${encodeURIComponent(known!.id)}`);
    await page.getByTestId('opportunity-detail').waitFor();
    const shown = page.getByTestId('opportunity-native-apr');
    expect(await shown.textContent()).to.match(/^\d[\d.,]*\s?%$/);
    expect(await shown.getByTestId('unknown-native-apr').count()).to.equal(0);

    await page.goto(`${base}/?opportunity=${encodeURIComponent(unknown!.id)}`);
    await page.getByTestId('opportunity-detail').waitFor();
    const marker = page.getByTestId('opportunity-native-apr').getByTestId('unknown-native-apr');
    expect(await marker.textContent()).to.equal('unknown');
    expect(await marker.getAttribute('title')).to.equal(unknown!.nativeAprRecord.description);
    expect(unknown!.nativeAprRecord.description).to.match(/^Unknown/);
  });
});
