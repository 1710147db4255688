import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { formatUsd } from '../../../web/shared/format.js';
import { eventuallyEquals, leaseBrowser, screenshot, watchErrors } from '../../helpers/browser.js';
import { startDemoWebServer, type DemoWebServer } from '../../helpers/demoWebServer.js';
import { getJson } from '../../helpers/getJson.js';

type Opportunity = { id: string; tvl: number; status: string };

/**
 * An open opportunity view follows its figures from GET /v4/events (#32): no request while nothing
 * changes, and a new TVL on screen once the metrics job announces it.
 */
describe('explorer: an open opportunity view updates from the event stream, without polling (#32)', function () {
  let web: DemoWebServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  before(async function () {
    web = await startDemoWebServer();
    browser = await leaseBrowser();
  });

  after(async () => {
    await page?.close();
    await browser?.close();
    await web?.close();
  });

  it('shows the new TVL after the prices double, having sent nothing but the stream meanwhile', async function () {
    const { demo } = web;
    const listed = await getJson<Opportunity[]>(`${web.base}/v4/opportunities?items=100&status=LIVE`);
    const target = listed.find((o) => o.tvl > 0)!;
    expect(target, 'a LIVE opportunity with a TVL').to.not.equal(undefined);

    page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    // The page's timers on a clock the test can move (it flows as the wall clock until then).
    await page.clock.install();
    errors = watchErrors(page);
    const requests: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/v4/')) requests.push(url.pathname + url.search);
    });
    await page.goto(`${web.base}/?opportunity=${encodeURIComponent(target.id)}`);
    await page.getByTestId('opportunity-detail').waitFor();
    const tvl = page.getByTestId('opportunity-tvl');
    expect(await tvl.textContent()).to.equal(formatUsd(target.tvl));
    await eventuallyEquals(
      async () => requests.some((r) => r.startsWith('/v4/events?')),
      true,
      'the view opens its stream',
    );
    const stream = requests.find((r) => r.startsWith('/v4/events?'))!;
    expect(new URLSearchParams(stream.split('?')[1]).get('opportunityId')).to.equal(target.id);
    expect(new URLSearchParams(stream.split('?')[1]).get('after')).to.equal('latest');

    // Nothing changes for a minute of the page's clock (every timer due in it fired): the view sends nothing.
    const quietFrom = requests.length;
    await page.clock.runFor(60_000);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
    expect(requests.slice(quietFrom), 'requests while nothing changed').to.deep.equal([]);

    for (const [key, price] of demo.api.prices) demo.api.prices.set(key, price * 2);
    for (const job of ['prices', 'metrics', 'publish']) {
      const run = await demo.h.runJob(job);
      expect(run.status, job).to.equal('success');
    }
    await demo.h.refresh();
    const now = await getJson<Opportunity>(`${web.base}/v4/opportunities/${encodeURIComponent(target.id)}`);
    expect(Math.abs(now.tvl - target.tvl * 2) / (target.tvl * 2)).to.be.below(0.01);
    const announced = await getJson<{
      events: { opportunityId: string; payload: { changed: string[]; previous: unknown } }[];
    }>(`${web.base}/v4/events?type=opportunity.changed&opportunityId=${encodeURIComponent(target.id)}&limit=1000`);
    const last = announced.events.at(-1)!;
    expect(last.payload.changed).to.include('tvl');
    expect(last.payload.previous, 'an announcement after the first').to.not.equal(null);

    await eventuallyEquals(() => tvl.textContent(), formatUsd(now.tvl), 'the TVL on screen');
    const reloads = requests
      .slice(quietFrom)
      .filter((r) => r.includes(`/opportunities/${encodeURIComponent(target.id)}/campaigns`));
    expect(reloads.length, 'reloads of the opportunity after one change').to.be.within(1, 2);
    await screenshot(page, 'live-update-opportunity');
    expect(errors, 'console errors and uncaught exceptions').to.deep.equal([]);
  });
});
