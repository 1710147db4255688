import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHttpServer } from '../../../api/httpServer.js';
import { leaseBrowser, screenshot } from '../../helpers/browser.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { login, type Session } from '../api/authFlow.js';

type Outcome = { ok: true; status: number; body: unknown; etag: string | null } | { ok: false; error: string };

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
};

/**
 * Item 1 of issue #21 in a real browser: pages served from two other loopback origins (one listed in
 * CORS_ORIGINS, one not) call the API with fetch, with the session cookie and with x-api-key.
 * Chromium itself enforces CORS: a refused call rejects with a TypeError and logs the CORS reason.
 */
describe('CORS in Chromium: pages on other origins calling the API with a cookie and with x-api-key', function () {
  let h: Harness;
  let api: Server;
  let apiBase: string;
  let pages: Server[];
  let listedOrigin: string;
  let otherOrigin: string;
  let browser: Browser;
  let context: BrowserContext;
  let alice: Session;
  let apiKey: string;
  const consoleErrors: string[] = [];

  /** fetch() run inside a page of `origin`; rejections come back as `{ ok: false }`. */
  const fetchFrom = async (
    origin: string,
    path: string,
    init: { method?: string; body?: string; credentials?: RequestCredentials; headers?: Record<string, string> } = {},
  ): Promise<Outcome> => {
    const page: Page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    try {
      await page.goto(`${origin}/`);
      return await page.evaluate(
        async ({ url, init }) => {
          try {
            const res = await fetch(url, init);
            return { ok: true as const, status: res.status, body: await res.json(), etag: res.headers.get('etag') };
          } catch (error) {
            return { ok: false as const, error: String(error) };
          }
        },
        { url: `${apiBase}${path}`, init },
      );
    } finally {
      await page.close();
    }
  };

  before(async function () {
    // Two page origins: same host, other ports (cross-origin, same-site, so the Lax cookie travels).
    pages = [0, 1].map(() =>
      createServer((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end('<!doctype html><title>integrator page</title><h1>integrator page</h1>'),
      ),
    );
    [listedOrigin, otherOrigin] = (await Promise.all(pages.map(listen))) as [string, string];
    h = await createHarness({ chainIds: [31337], env: { CORS_ORIGINS: listedOrigin } });
    api = createHttpServer(h.app);
    apiBase = await listen(api);
    alice = await login(h, HARDHAT_TEST_KEYS[0]);
    apiKey = (
      await h
        .request()
        .post('/v4/developer/keys')
        .set('Cookie', alice.cookie)
        .send({ description: 'browser' })
        .expect(200)
    ).body.rawKey;
    browser = await leaseBrowser();
    context = await browser.newContext();
    await context.addCookies([
      { name: 'jwt', value: alice.token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' },
    ]);
  });

  after(async () => {
    await browser?.close();
    await Promise.all([api, ...(pages ?? [])].map((s) => new Promise((r) => (s ? s.close(r) : r(undefined)))));
    await h?.close();
  });

  it('public read: both origins read /v4/chains (with and without x-api-key) and the exposed ETag', async function () {
    for (const origin of [listedOrigin, otherOrigin]) {
      const plain = await fetchFrom(origin, '/v4/chains');
      expect(plain, origin).to.deep.include({ ok: true, status: 200 });
      expect((plain as { body: unknown[] }).body).to.be.an('array');
      expect((plain as { etag: string }).etag, 'ETag exposed to the page').to.match(/^W\/"/);
      const keyed = await fetchFrom(origin, '/v4/chains', { headers: { 'x-api-key': apiKey } });
      expect(keyed, `${origin} with x-api-key`).to.deep.include({ ok: true, status: 200 });
    }
  });

  it('cookie session: the listed origin reads /v4/auth/me with credentials; the other origin is refused by the browser', async function () {
    const listed = await fetchFrom(listedOrigin, '/v4/auth/me', { credentials: 'include' });
    expect(listed).to.deep.include({ ok: true, status: 200 });
    expect((listed as { body: { address: string } }).body.address.toLowerCase()).to.equal(alice.address);
    consoleErrors.length = 0;
    const other = await fetchFrom(otherOrigin, '/v4/auth/me', { credentials: 'include' });
    expect(other).to.deep.include({ ok: false });
    expect(consoleErrors.join('\n')).to.match(/blocked by CORS policy/);
  });

  it('x-api-key: the listed origin passes the preflight and reads /v4/key-value-stores/self; the other origin fails the preflight', async function () {
    const listed = await fetchFrom(listedOrigin, '/v4/key-value-stores/self', { headers: { 'x-api-key': apiKey } });
    expect(listed).to.deep.include({ ok: true, status: 200, body: [] });
    consoleErrors.length = 0;
    const other = await fetchFrom(otherOrigin, '/v4/key-value-stores/self', { headers: { 'x-api-key': apiKey } });
    expect(other).to.deep.include({ ok: false });
    expect(consoleErrors.join('\n')).to.match(/preflight|blocked by CORS policy/);
  });

  it('cookie on a public read with showPrivate: the listed origin gets a credentialed answer, the other one is refused', async function () {
    const listed = await fetchFrom(listedOrigin, '/v4/campaigns?showPrivate=true', { credentials: 'include' });
    expect(listed).to.deep.include({ ok: true, status: 200 });
    const other = await fetchFrom(otherOrigin, '/v4/campaigns?showPrivate=true', { credentials: 'include' });
    expect(other).to.deep.include({ ok: false });
    const page = await context.newPage();
    await page.goto(`${listedOrigin}/`);
    await screenshot(page, 'cors-listed-origin');
    await page.close();
  });

  it("cross-site form (M1 of #29): the other origin's form POST carries the cookie and is refused with nothing written; the listed origin and a page of the API itself write with the cookie", async function () {
    const keys = async () =>
      (await h.request().get('/v4/developer/keys').set('Cookie', alice.cookie).expect(200)).body.length as number;
    const before = await keys();
    const page = await context.newPage();
    await page.goto(`${otherOrigin}/`);
    const answered = page.waitForResponse(`${apiBase}/v4/developer/keys`);
    await page.evaluate((action) => {
      const form = Object.assign(document.createElement('form'), { method: 'POST', action });
      form.append(Object.assign(document.createElement('input'), { name: 'description', value: 'x' }));
      document.body.append(form);
      form.submit();
    }, `${apiBase}/v4/developer/keys`);
    const response = await answered;
    const sent = await response.request().allHeaders();
    expect(sent['origin'], 'Chromium names the page').to.equal(otherOrigin);
    expect(sent['cookie'], 'the Lax cookie travels to another port').to.include(`jwt=${alice.token}`);
    expect(response.status()).to.equal(403);
    expect((await response.json()).code).to.equal('CROSS_SITE_REQUEST_REFUSED');
    await page.close();
    expect(await keys(), 'no key created').to.equal(before);

    const init = {
      method: 'POST',
      credentials: 'include' as const,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'browser' }),
    };
    expect(await fetchFrom(listedOrigin, '/v4/developer/keys', init)).to.deep.include({ ok: true, status: 200 });
    // The API's own pages (explorer, operations) are served from its origin: Origin equals the Host it was reached by.
    expect(await fetchFrom(apiBase, '/v4/developer/keys', init)).to.deep.include({ ok: true, status: 200 });
    expect(await keys()).to.equal(before + 2);
  });
});
