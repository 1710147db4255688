import { expect } from 'chai';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createReferenceDemo, type ReferenceDemo } from '../referenceDemo.js';
import { createHttpServer } from '../../../../api/httpServer.js';

/** Debian's Chromium (scripts/ensureDeps.sh installs it). */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

describe('browser: GraphiQL at /graphql/v1 and the /docs page, offline', function () {
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
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'],
    });
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
    for (const path of ['/graphql/v1', '/docs']) {
      const res = await demo.h
        .request()
        .get(path)
        .set('accept', 'text/html')
        .expect(200)
        .expect('content-type', /text\/html/);
      expect(res.text).to.not.match(/(src|href)="(https?:)?\/\//);
      for (const [, url] of res.text.matchAll(/(?:src|href)="([^"]+)"/g)) await demo.h.request().get(url!).expect(200);
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

  it('renders the OpenAPI document in Swagger UI at /docs', async function () {
    this.timeout(60_000);
    const page = await offlinePage();
    await page.goto(`${base}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    // Swagger UI loaded the whole document (it renders the operation blocks lazily, so count them
    // in its state rather than in the DOM).
    const operations = await page.evaluate(() => {
      const tagged = (
        window as unknown as {
          ui: { specSelectors: { taggedOperations(): { toJS(): Record<string, { operations: unknown[] }> } } };
        }
      ).ui.specSelectors
        .taggedOperations()
        .toJS();
      return Object.values(tagged).reduce((n, t) => n + t.operations.length, 0);
    });
    expect(operations).to.be.greaterThan(70);
    expect(await page.locator('.info .title').textContent()).to.contain('1.0.1');
    expect(external).to.deep.equal([]);
    await page.close();
  });
});
