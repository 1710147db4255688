import { expect } from 'chai';
import type Koa from 'koa';
import supertest from 'supertest';
import { EXPOSED_HEADERS, PREFLIGHT_MAX_AGE_SECONDS } from '../../../api/middleware/cors.js';
import { resetDatabase } from '../../helpers/database.js';
import { type AppWithoutChains, createAppWithoutChains } from '../../helpers/appWithoutChains.js';
import { TEST_DATABASE_URL } from '../../helpers/testConfig.js';

const LISTED = 'https://app.example';
const OTHER = 'https://evil.example';

/**
 * CORS rules read from the router stacks (api/middleware/cors.ts), over HTTP against the real app
 * with its production middleware (rate limit on, 1 request per second). The browser proof is
 * test/integration/web/cors.test.ts.
 */
describe('CORS: public reads for any origin, credentialed routes for CORS_ORIGINS, preflights before the rate limit', function () {
  let app: Koa;
  let served: AppWithoutChains;
  const request = () => supertest(app.callback());
  const preflight = (path: string, origin: string, method: string, headers = '') => {
    const req = request().options(path).set('Origin', origin).set('Access-Control-Request-Method', method);
    return headers ? req.set('Access-Control-Request-Headers', headers) : req;
  };
  /** The limiter allows 1 request per second: actual requests each wait for a window of their own. */
  const nextWindow = () => new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 20));
  const listOf = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);

  before(async function () {
    await resetDatabase(TEST_DATABASE_URL);
    served = createAppWithoutChains('test-cors', {
      RATE_LIMITS: '1,1,1,1',
      CORS_ORIGINS: `${LISTED},http://127.0.0.1:5173`,
    });
    app = served.app;
  });

  after(async () => served?.close());

  it('answers 20 preflights at once, before the rate limit (1/s) and without opening a PostgreSQL connection', async function () {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        preflight(i % 2 ? '/v4/developer/keys' : '/v4/opportunities', i % 4 < 2 ? LISTED : OTHER, 'GET', 'x-api-key'),
      ),
    );
    for (const res of answers) {
      expect(res.status).to.equal(204);
      expect(res.headers['ratelimit-limit'], 'no rate-limit header on a preflight').to.equal(undefined);
    }
    expect(served.pg.totalCount, 'PostgreSQL connections opened by preflights').to.equal(0);
    // The same path without a preflight goes through the limiter, which claims its window in PostgreSQL.
    await nextWindow();
    const plain = await request().get('/v4/openapi.json').set('Origin', OTHER);
    expect(plain.headers['ratelimit-limit']).to.equal('1');
    expect(served.pg.totalCount).to.be.greaterThan(0);
  });

  it('public read: any origin gets `*` without credentials and without Vary: Origin; no Origin, no CORS headers', async function () {
    await nextWindow();
    const res = await request().get('/v4/openapi.json').set('Origin', OTHER).expect(200);
    expect(res.headers['access-control-allow-origin']).to.equal('*');
    expect(res.headers['access-control-allow-credentials']).to.equal(undefined);
    expect(res.headers['access-control-expose-headers']).to.equal(EXPOSED_HEADERS);
    expect(listOf(res.headers['vary'])).not.to.include('origin');
    await nextWindow();
    const curl = await request().get('/v4/openapi.json').expect(200);
    expect(curl.headers['access-control-allow-origin']).to.equal(undefined);
  });

  it('public read preflight: `*` for any origin, its methods, x-api-key but not authorization; a listed origin gets itself, credentials and authorization', async function () {
    const other = await preflight('/v4/opportunities/', OTHER, 'GET', 'x-api-key').expect(204);
    expect(other.headers['access-control-allow-origin']).to.equal('*');
    expect(other.headers['access-control-allow-credentials']).to.equal(undefined);
    expect(listOf(other.headers['access-control-allow-methods'])).to.have.members(['get', 'head']);
    expect(listOf(other.headers['access-control-allow-headers']))
      .to.include.members(['x-api-key', 'x-request-id', 'if-none-match'])
      .and.not.include('authorization');
    expect(other.headers['access-control-max-age']).to.equal(String(PREFLIGHT_MAX_AGE_SECONDS));
    expect(listOf(other.headers['vary'])).to.include('origin');
    const listed = await preflight('/v4/opportunities', LISTED, 'GET', 'authorization').expect(204);
    expect(listed.headers['access-control-allow-origin']).to.equal(LISTED);
    expect(listed.headers['access-control-allow-credentials']).to.equal('true');
    expect(listOf(listed.headers['access-control-allow-headers'])).to.include('authorization');
  });

  it('credentialed route: a listed origin gets itself with credentials (also on the 401), another origin nothing; both vary by Origin', async function () {
    await nextWindow();
    const listed = await request().get('/v4/auth/me').set('Origin', LISTED).expect(401);
    expect(listed.headers['access-control-allow-origin']).to.equal(LISTED);
    expect(listed.headers['access-control-allow-credentials']).to.equal('true');
    expect(listOf(listed.headers['vary'])).to.include('origin');
    await nextWindow();
    const other = await request().get('/v4/auth/me').set('Origin', OTHER).expect(401);
    expect(other.headers['access-control-allow-origin']).to.equal(undefined);
    expect(other.headers['access-control-allow-credentials']).to.equal(undefined);
    expect(listOf(other.headers['vary'])).to.include('origin');
    const refused = await preflight('/v4/developer/keys', OTHER, 'POST', 'content-type').expect(204);
    expect(refused.headers['access-control-allow-origin']).to.equal(undefined);
    expect(refused.headers['access-control-allow-methods']).to.equal(undefined);
    expect(refused.headers['access-control-allow-headers']).to.equal(undefined);
  });

  it('preflights list the methods each path serves and the headers each route reads (guards, bodies, route headers)', async function () {
    const entries = await preflight(
      '/v4/key-value-stores/my:store/entries',
      LISTED,
      'PUT',
      'content-type,x-api-key',
    ).expect(204);
    expect(listOf(entries.headers['access-control-allow-methods'])).to.have.members(['get', 'head', 'put']);
    expect(listOf(entries.headers['access-control-allow-headers'])).to.include.members([
      'content-type',
      'x-api-key',
      'authorization',
    ]);
    // The same path's public GET, from any origin: only its GET, and its listing headers.
    const listing = await preflight('/v4/key-value-stores/my:store/entries', OTHER, 'GET', 'page,pagesize').expect(204);
    expect(listing.headers['access-control-allow-origin']).to.equal('*');
    expect(listOf(listing.headers['access-control-allow-methods'])).to.have.members(['get', 'head']);
    expect(listOf(listing.headers['access-control-allow-headers']))
      .to.include.members(['page', 'pagesize', 'value'])
      .and.not.include('content-type');
    const credits = await preflight('/v4/credits', LISTED, 'POST', 'authorization,content-type,idempotency-key').expect(
      204,
    );
    expect(listOf(credits.headers['access-control-allow-headers'])).to.include.members([
      'authorization',
      'content-type',
      'idempotency-key',
    ]);
    const self = await preflight('/v4/key-value-stores/self/my:store', LISTED, 'PATCH').expect(204);
    expect(listOf(self.headers['access-control-allow-methods'])).to.have.members(['patch', 'delete']);
    const graphql = await preflight('/graphql/v1', OTHER, 'POST', 'content-type').expect(204);
    expect(graphql.headers['access-control-allow-origin']).to.equal('*');
    expect(listOf(graphql.headers['access-control-allow-headers'])).to.include('content-type');
  });

  it('refuses a preflight for a method or path no route serves', async function () {
    const method = await preflight('/v4/chains', LISTED, 'DELETE').expect(204);
    expect(method.headers['access-control-allow-origin']).to.equal(undefined);
    const path = await preflight('/v4/no-such-route', LISTED, 'GET').expect(204);
    expect(path.headers['access-control-allow-origin']).to.equal(undefined);
  });
});
