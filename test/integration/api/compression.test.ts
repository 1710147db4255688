import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { createHttpServer } from '../../../api/httpServer.js';
import { BROTLI_QUALITY, COMPRESSION_THRESHOLD_BYTES, GZIP_LEVEL } from '../../../api/middleware/compression.js';
import { buildWeb } from '../../../web/build.js';
import { ARTIFACTS_DIR } from '../../helpers/browser.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type Raw = { status: number; headers: IncomingHttpHeaders; bytes: Buffer };

/** GET with node:http, so the bytes on the wire are seen as sent (fetch and supertest decode them). */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const decode = (raw: Raw): Buffer => {
  const encoding = raw.headers['content-encoding'];
  return encoding === 'br' ? brotliDecompressSync(raw.bytes) : encoding === 'gzip' ? gunzipSync(raw.bytes) : raw.bytes;
};
const varyOf = (raw: Raw) =>
  String(raw.headers['vary'] ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);

const RECIPIENT = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';

/**
 * Item 2 of issue #21 on the seeded demo over a real socket: brotli and gzip as negotiated, for JSON,
 * problem+json, CSV, the OpenAPI document and page assets, never below the threshold, with
 * `Vary: Accept-Encoding`; the decoded body is byte-identical to the identity answer and ETags and
 * 304s hold across encodings. Writes the bytes saved per response to test-artifacts/compression.json.
 */
describe('response compression (gzip, brotli) on the demo data', function () {
  let demo: ReferenceDemo;
  let dist: string;
  let server: Server;
  let base: string;
  let opportunityId: string;

  before(async function () {
    demo = await createReferenceDemo();
    dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
    await buildWeb({ outDir: dist });
    const { h } = demo;
    server = createHttpServer(
      h.createApp({
        webDist: dist,
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    opportunityId = JSON.parse((await rawGet(base, '/v4/opportunities?items=1')).bytes.toString())[0].id;
  });

  after(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (dist) rmSync(dist, { recursive: true, force: true });
    await demo?.close();
  });

  it('JSON: brotli when preferred or tied, gzip when only gzip is accepted, identity without Accept-Encoding; same bytes once decoded', async function () {
    const path = '/v4/opportunities?items=100';
    const identity = await rawGet(base, path);
    expect(identity.headers['content-encoding']).to.equal(undefined);
    expect(varyOf(identity)).to.include('accept-encoding');
    for (const [accept, expected] of [
      ['gzip, br', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['deflate', undefined],
      ['identity', undefined],
    ] as const) {
      const res = await rawGet(base, path, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).to.equal(expected);
      expect(varyOf(res), accept).to.include('accept-encoding');
      expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
      expect(decode(res).equals(identity.bytes), `${accept}: decoded body equals the identity body`).to.equal(true);
      if (expected) expect(res.bytes.length, accept).to.be.below(identity.bytes.length / 3);
    }
  });

  it('ETag is weak and the same for every encoding; If-None-Match answers 304 without a body, whichever encoding produced the tag', async function () {
    const path = '/v4/campaigns?items=50';
    const [identity, br, gzip] = await Promise.all(
      [undefined, 'br', 'gzip'].map((e) => rawGet(base, path, e ? { 'accept-encoding': e } : {})),
    );
    expect(identity!.headers['etag']).to.match(/^W\/"/);
    expect(br!.headers['etag']).to.equal(identity!.headers['etag']);
    expect(gzip!.headers['etag']).to.equal(identity!.headers['etag']);
    for (const accept of ['br', 'gzip', '']) {
      const res = await rawGet(base, path, {
        'if-none-match': br!.headers['etag']!,
        ...(accept ? { 'accept-encoding': accept } : {}),
      });
      expect(res.status, accept).to.equal(304);
      expect(res.bytes.length).to.equal(0);
      expect(res.headers['content-encoding']).to.equal(undefined);
      expect(res.headers['etag']).to.equal(identity!.headers['etag']);
    }
  });

  it('compresses the OpenAPI document, CSV, problem bodies and page assets; not bodies below the threshold', async function () {
    const accept = { 'accept-encoding': 'gzip, deflate, br' };
    const openapi = await rawGet(base, '/v4/openapi.json', accept);
    expect(openapi.headers['content-encoding']).to.equal('br');
    expect(JSON.parse(decode(openapi).toString())).to.have.property('openapi', '3.1.0');
    const csv = await rawGet(base, `/v4/opportunities/${opportunityId}/tvl-records?grain=hour`, {
      ...accept,
      accept: 'text/csv',
    });
    expect(csv.headers['content-type']).to.match(/^text\/csv/);
    const csvIdentity = await rawGet(base, `/v4/opportunities/${opportunityId}/tvl-records?grain=hour`, {
      accept: 'text/csv',
    });
    expect(csv.headers['content-encoding'], `CSV of ${csvIdentity.bytes.length} bytes`).to.equal(
      csvIdentity.bytes.length >= COMPRESSION_THRESHOLD_BYTES ? 'br' : undefined,
    );
    expect(decode(csv).equals(csvIdentity.bytes)).to.equal(true);
    const problem = await rawGet(
      base,
      `/v4/opportunities?${Array.from({ length: 60 }, (_, i) => `bad${i}=1`).join('&')}`,
      accept,
    );
    expect(problem.status).to.equal(400);
    expect(problem.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(JSON.parse(decode(problem).toString()).errors).to.have.length(60);
    for (const file of readdirSync(join(dist, 'assets'))) {
      const asset = await rawGet(base, `/assets/${file}`, accept);
      const plain = await rawGet(base, `/assets/${file}`);
      expect(asset.headers['content-encoding'], file).to.equal(
        plain.bytes.length >= COMPRESSION_THRESHOLD_BYTES ? 'br' : undefined,
      );
      expect(decode(asset).equals(plain.bytes), file).to.equal(true);
    }
    const small = await rawGet(base, '/v4/claims/count/total', accept);
    expect(small.bytes.length).to.be.below(COMPRESSION_THRESHOLD_BYTES);
    expect(small.headers['content-encoding']).to.equal(undefined);
    expect(varyOf(small)).to.include('accept-encoding');
    const png = await rawGet(base, '/docs/assets/favicon-32x32.png', accept);
    expect(png.headers['content-encoding'], 'PNG is already compressed').to.equal(undefined);
  });

  it('saves bytes on the largest demo responses (figures in test-artifacts/compression.json)', async function () {
    const document = JSON.parse((await rawGet(base, '/v4/openapi.json')).bytes.toString()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const fill: Record<string, string> = {
      id: opportunityId,
      address: RECIPIENT,
      opportunityId,
      campaignId: opportunityId,
    };
    const paths = Object.entries(document.paths)
      .filter(([path, item]) => item['get'] && !/\{(?!id\}|address\})/.test(path))
      .map(([path]) => path.replace(/\{(\w+)\}/g, (_, name: string) => fill[name]!))
      .flatMap((path) =>
        path === '/v4/opportunities' || path === '/v4/campaigns' || path === '/v4/claims'
          ? [`${path}?items=100`]
          : [path],
      );
    paths.push(`/v4/users/${RECIPIENT}/rewards?chainId=31337`);
    const rows: { path: string; identity: number; gzip: number; br: number; gzipMs?: number; brMs?: number }[] = [];
    const bodies = new Map<string, Buffer>();
    for (const path of [...new Set(paths)]) {
      const identity = await rawGet(base, path);
      if (identity.status !== 200) continue;
      const [gzip, br] = await Promise.all(['gzip', 'br'].map((e) => rawGet(base, path, { 'accept-encoding': e })));
      // Reads that tell the time (health, pipeline status) differ between two calls anyway.
      const stable = (await rawGet(base, path)).bytes.equals(identity.bytes);
      if (stable) expect(decode(br!).equals(identity.bytes), path).to.equal(true);
      else expect(() => JSON.parse(decode(br!).toString()), path).not.to.throw();
      rows.push({ path, identity: identity.bytes.length, gzip: gzip!.bytes.length, br: br!.bytes.length });
      bodies.set(path, identity.bytes);
    }
    rows.sort((a, b) => b.identity - a.identity);
    const largest = rows.slice(0, 5);
    expect(largest).to.have.length(5);
    for (const row of largest) expect(row.br, row.path).to.be.below(row.identity / 3);
    // CPU per response at the middleware's settings (median of 15, this process, same zlib).
    const median = (f: () => void) =>
      Array.from({ length: 15 }, () => {
        const t0 = performance.now();
        f();
        return performance.now() - t0;
      }).sort((a, b) => a - b)[7]!;
    for (const row of largest) {
      const body = bodies.get(row.path)!;
      row.brMs = median(() =>
        brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
      );
      row.gzipMs = median(() => gzipSync(body, { level: GZIP_LEVEL }));
    }
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    writeFileSync(join(ARTIFACTS_DIR, 'compression.json'), JSON.stringify(rows, null, 2));
    console.log(
      largest
        .map(
          (r) =>
            `      ${r.path}: ${r.identity} B → gzip ${r.gzip} B (−${(100 - (100 * r.gzip) / r.identity).toFixed(0)} %), br ${r.br} B (−${(100 - (100 * r.br) / r.identity).toFixed(0)} %); CPU br ${r.brMs!.toFixed(2)} ms, gzip ${r.gzipMs!.toFixed(2)} ms`,
        )
        .join('\n'),
    );
  });
});
