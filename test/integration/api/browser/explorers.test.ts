import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createReferenceDemo, type ReferenceDemo } from '../referenceDemo.js';
import { createHttpServer } from '../../../../api/httpServer.js';
import { ARTIFACTS_DIR, leaseBrowser } from '../../../helpers/browser.js';
import { eventually } from '../../../helpers/eventually.js';

/** Polls `check` until it holds (10 s at most). */
async function eventuallyTrue(check: () => Promise<boolean>): Promise<void> {
  await eventually(check, { timeoutMs: 10_000, intervalMs: 100 });
}

describe('browser: GraphiQL at /graphql/v1, the /docs reference and Swagger UI at /docs/swagger, offline', function () {
  let demo: ReferenceDemo;
  let server: Server;
  let base: string;
  let browser: Browser;
  const external: string[] = [];

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    server = createHttpServer(demo.h.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await leaseBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await demo?.close();
  });

  /** A page that may only reach our server: any other request is recorded and aborted (no internet). */
  async function offlinePage(): Promise<Page> {
    const page = await browser.newPage();
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith('data:')) return route.continue();
      external.push(url);
      return route.abort();
    });
    return page;
  }

  it('serves pages whose scripts and styles are all ours (no CDN URL in the HTML)', async function () {
    for (const path of ['/graphql/v1', '/docs', '/docs/swagger']) {
      const res = await demo.h
        .request()
        .get(path)
        .set('accept', 'text/html')
        .expect(200)
        .expect('content-type', /text\/html/);
      expect(res.text).to.not.match(/(src|href)="(https?:)?\/\//);
      for (const [, url] of res.text.matchAll(/(?:src|href)="([^"]+)"/g))
        if (!url!.startsWith('data:')) await demo.h.request().get(url!).expect(200);
    }
  });

  it('loads GraphiQL, runs a query and shows its result', async function () {
    this.timeout(60_000);
    const [first] = (await demo.h.request().get('/v4/opportunities').query({ items: 5 }).expect(200)).body as {
      id: string;
    }[];
    const page = await offlinePage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    const notFound: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404) notFound.push(r.url());
    });
    await page.goto(`${base}/graphql/v1`);
    await page.locator('.graphiql-execute-button').click({ timeout: 30_000 });
    const result = page.locator('.result-window');
    await result.getByText('"opportunities"').waitFor({ timeout: 30_000 });
    expect(await result.textContent()).to.contain(first!.id);
    expect(errors).to.deep.equal([]);
    expect(notFound, 'no 404 (the favicon is served)').to.deep.equal([]);
    expect(external).to.deep.equal([]);
    await page.close();
  });

  it('serves /favicon.ico: a 16×16 icon, cacheable, outside the rate limit', async function () {
    const res = await demo.h.request().get('/favicon.ico').expect(200).expect('content-type', 'image/x-icon');
    expect(res.headers['cache-control']).to.equal('public, max-age=86400');
    const body = res.body as Buffer;
    expect(
      [body.readUInt16LE(0), body.readUInt16LE(2), body.readUInt16LE(4), body[6], body[7]],
      'ICO header: one 16×16 image',
    ).to.deep.equal([0, 1, 1, 16, 16]);
    expect(body.length).to.equal(body.readUInt32LE(14) + body.readUInt32LE(18));
    expect(res.headers['ratelimit-limit']).to.equal(undefined);
  });

  /** The tags as users meet them first (#44): what they do first, the back office last. */
  const FIRST_TAGS = ['opportunities', 'campaigns', 'rewards', 'users'];
  const LAST_TAGS = ['internal', 'accounting'];

  /**
   * A first visit of /docs in a new browser context (offline: only our server), timed: the page's own
   * mark (navigation start to the first operation rendered) and the wall clock to it being visible.
   */
  async function firstVisit(viewport: { width: number; height: number }) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith('data:')) return route.continue();
      external.push(url);
      return route.abort();
    });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const sizes: number[] = [];
    page.on('requestfinished', async (r) => {
      // Bytes as sent (compressed), headers included.
      const { responseBodySize, responseHeadersSize } = await r.sizes();
      sizes.push(responseBodySize + responseHeadersSize);
    });
    const started = Date.now();
    await page.goto(`${base}/docs`);
    await page.locator('[data-testid=operation]').first().waitFor({ timeout: 30_000 });
    const wallMs = Date.now() - started;
    const markMs = await page.evaluate(() => performance.getEntriesByName('first-operation')[0]?.startTime ?? -1);
    return { context, page, errors, wallMs, markMs, sizes };
  }

  it("/docs: the first operation shows within 2 s, every operation of the document is listed by tag (users' first, back office last), one opens and is tried", async function () {
    this.timeout(120_000);
    const doc = (await demo.h.request().get('/v4/openapi.json').expect(200)).body as {
      tags: { name: string }[];
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const operationIds = Object.values(doc.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    const tags = doc.tags.map((t) => t.name);
    expect(tags.slice(0, 4)).to.deep.equal(FIRST_TAGS);
    expect(tags.slice(-2)).to.deep.equal(LAST_TAGS);
    const figures: string[] = [];
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    for (const [name, viewport] of [
      ['1366', { width: 1366, height: 900 }],
      ['390', { width: 390, height: 844 }],
    ] as const) {
      // Three first visits (a new browser context each: nothing cached); the median must be under 2 s (this
      // machine's load varies: a chaos run may share it). The last visit's page is the one examined below.
      const visits: Awaited<ReturnType<typeof firstVisit>>[] = [];
      for (let i = 0; i < 3; i++) {
        if (visits.length) await visits.at(-1)!.context.close();
        visits.push(await firstVisit(viewport));
      }
      const marks = visits.map((v) => v.markMs).sort((a, b) => a - b);
      const { page, context, errors, sizes } = visits.at(-1)!;
      const bytes = sizes.reduce((a, b) => a + b, 0);
      figures.push(
        `${name} px: first operation shown after ${marks.map((m) => Math.round(m)).join(', ')} ms (median ${Math.round(marks[1]!)}; wall clock ${visits.map((v) => v.wallMs).join(', ')} ms), ${Math.round(bytes / 1024)} KB transferred`,
      );
      expect(marks[1]!, `median time to the first operation at ${name} px`).to.be.within(0, 2_000);
      expect(
        await page
          .locator('[data-testid=tag]')
          .evaluateAll((sections) => sections.map((s) => s.getAttribute('data-tag'))),
        "sections in the document's tag order",
      ).to.deep.equal(tags);
      expect(
        await page
          .locator('[data-testid=operation]')
          .evaluateAll((ops) => ops.map((o) => o.getAttribute('data-operation-id'))),
      ).to.have.members(operationIds);
      expect(await page.locator('h1').textContent()).to.contain('1.0.1');
      const first = await page.locator('[data-testid=operation]').first().boundingBox();
      expect(first!.y + first!.height, `the first operation is on the first screen at ${name} px`).to.be.at.most(
        viewport.height,
      );
      if (name === '390') expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(390);
      await page.screenshot({ path: join(ARTIFACTS_DIR, `issue44-docs-${name}.png`) });

      // Open GET /v4/chains, try it: the API answers on the page.
      const chains = page
        .locator('[data-testid=operation]', { has: page.locator('code.path', { hasText: /^\/v4\/chains$/ }) })
        .first();
      await chains.locator('summary').click();
      await chains.getByTestId('try-it').getByRole('button', { name: 'Send GET' }).click();
      const answer = chains.getByTestId('try-answer');
      await answer.waitFor();
      expect(await answer.getAttribute('data-status')).to.equal('200');
      expect(await answer.locator('pre').textContent()).to.contain('"liveCampaigns"');
      // Searching narrows the list to the matching operations.
      await page.fill('input[name=q]', 'claims');
      await eventuallyTrue(async () => (await page.locator('[data-testid=tag]').count()) < tags.length);
      if (name === '1366') await page.screenshot({ path: join(ARTIFACTS_DIR, 'issue44-docs-tried-1366.png') });
      expect(errors).to.deep.equal([]);
      await context.close();
    }
    console.log(`      /docs ${figures.join('; ')}`);
    expect(external).to.deep.equal([]);
  });

  it('Swagger UI at /docs/swagger renders the whole document, its tags in the same order', async function () {
    this.timeout(120_000);
    const page = await offlinePage();
    const started = Date.now();
    await page.goto(`${base}/docs/swagger`);
    await page.locator('.opblock').first().waitFor({ timeout: 60_000 });
    console.log(`      /docs/swagger: first operation after ${Date.now() - started} ms (Swagger UI, for comparison)`);
    // Swagger UI loaded the whole document (it renders the operation blocks lazily, so count them
    // in its state rather than in the DOM).
    const tagged = await page.evaluate(() => {
      const byTag = (
        window as unknown as {
          ui: { specSelectors: { taggedOperations(): { toJS(): Record<string, { operations: unknown[] }> } } };
        }
      ).ui.specSelectors
        .taggedOperations()
        .toJS();
      return Object.entries(byTag).map(([tag, t]) => [tag, t.operations.length] as const);
    });
    expect(tagged.reduce((n, [, count]) => n + count, 0)).to.be.greaterThan(70);
    expect(tagged.slice(0, 4).map(([tag]) => tag)).to.deep.equal(FIRST_TAGS);
    expect(tagged.slice(-2).map(([tag]) => tag)).to.deep.equal(LAST_TAGS);
    expect(await page.locator('.info .title').textContent()).to.contain('1.0.1');
    expect(external).to.deep.equal([]);
    await page.close();
  });
});
