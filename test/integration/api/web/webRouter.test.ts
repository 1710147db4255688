import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import supertest from 'supertest';
import { buildWeb } from '../../../../web/build.js';
import { createHarness, type Harness } from '../../../helpers/harness.js';

describe('api/web/webRouter: the explorer and operations pages', function () {
  let h: Harness;
  let dist: string;
  let request: (webDist?: string) => ReturnType<typeof supertest>;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    await buildWeb({ outDir: dist });
    request = (webDist = dist) =>
      supertest(
        h
          .createApp({
            webDist,
          })
          .callback(),
      );
  });

  after(async () => {
    rmSync(dist, { recursive: true, force: true });
    await h?.close();
  });

  for (const [path, script] of [
    ['/', /\/assets\/explorer-[A-Z0-9]+\.js/],
    ['/ops', /\/assets\/ops-[A-Z0-9]+\.js/],
  ] as const) {
    it(`serves ${path} as HTML revalidated on every load, with a same-origin CSP and its hashed assets cached for a year`, async function () {
      const page = await request().get(path).expect(200);
      expect(page.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(page.headers['cache-control']).to.equal('no-cache');
      expect(page.headers['etag']).to.be.a('string');
      expect(page.headers['content-security-policy']).to.include("default-src 'self'").and.include("script-src 'self'");
      await request().get(path).set('if-none-match', page.headers['etag']!).expect(304);
      const assets = [...page.text.matchAll(/\/assets\/[A-Za-z0-9_-]+\.(?:js|css)/g)].map((m) => m[0]);
      expect(
        assets.some((a) => script.test(a)),
        page.text,
      ).to.equal(true);
      expect(assets.some((a) => a.endsWith('.css'))).to.equal(true);
      for (const asset of assets) {
        const res = await request().get(asset).expect(200);
        expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
        expect(res.headers['content-type']).to.match(asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/);
      }
    });
  }

  it('answers 404 for unknown or path-like asset names, and 503 naming the build command when nothing is built', async function () {
    await request().get('/assets/nope-ABC.js').expect(404);
    await request().get('/assets/..%2Fops.html').expect(404);
    const missing = await request(join(dist, 'absent')).get('/').expect(503);
    expect(missing.headers['content-type']).to.match(/application\/problem\+json/);
    expect(missing.body.detail).to.include('npm run web:build');
  });
});
