import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { DEMO_PROGRAMS, seedPrograms } from '../../../scripts/seedPrograms.js';
import { eventuallyEquals, leaseBrowser, watchErrors } from '../../helpers/browser.js';
import { startDemoWebServer, type DemoWebServer } from '../../helpers/demoWebServer.js';
import { getJson } from '../../helpers/getJson.js';

type Program = { slug: string; name: string; opportunities: { id: string }[] };

/**
 * Issue 46, explorer items: the programs (scripts/seedPrograms.ts, as the quick start seeds them) are a filter of the
 * opportunity list and show on an opportunity's page, linking to the list of that program. Demo data, real API, Chromium.
 */
describe('explorer: programs as a filter and on opportunity pages (Chromium, #46)', function () {
  let web: DemoWebServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let programs: Program[];

  const rows = () =>
    page
      .locator('[data-testid=opportunity-row]')
      .evaluateAll((els) => els.map((r) => r.getAttribute('data-id')!).sort());
  const resultsReady = () => page.locator('[data-testid=results][data-ready=true]').waitFor();

  before(async function () {
    web = await startDemoWebServer();
    await seedPrograms(web.demo.h.deps.pg);
    expect((await web.demo.h.runJob('publish')).status).to.equal('success');
    await web.demo.h.refresh();
    programs = await getJson<Program[]>(`${web.base}/v4/programs`);
    expect(programs.map((p) => p.slug).sort()).to.deep.equal(DEMO_PROGRAMS.map((p) => p.slug).sort());
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

  it('filters the list by program: the checkbox puts programSlugs in the address and lists exactly its opportunities', async function () {
    const lending = programs.find((p) => p.slug === 'devnet-lending-program')!;
    page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    errors = watchErrors(page);
    await page.goto(`${web.base}/?items=100`);
    await resultsReady();
    const group = page.locator('[data-testid=filter-programSlugs]');
    expect(await group.locator('label').allTextContents()).to.have.members(programs.map((p) => p.name));
    await group.getByLabel(lending.name).check();
    await page.waitForURL(/programSlugs=devnet-lending-program/);
    await resultsReady();
    await eventuallyEquals(rows, lending.opportunities.map((o) => o.id).sort(), 'rows of the program');
  });

  it("shows an opportunity's programs on its page, each a link to the list of that program", async function () {
    const dex = programs.find((p) => p.slug === 'devnet-dex-incentives')!;
    const member = dex.opportunities[0]!.id;
    page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    errors = watchErrors(page);
    await page.goto(`${web.base}/?opportunity=${member}`);
    const cell = page.locator('[data-testid=opportunity-programs]');
    await eventuallyEquals(() => cell.textContent(), dex.name, 'programs of the opportunity');
    await page.locator('[data-testid=program-devnet-dex-incentives]').click();
    await page.waitForURL(/programSlugs=devnet-dex-incentives/);
    await resultsReady();
    expect(await rows()).to.include(member);
  });
});
