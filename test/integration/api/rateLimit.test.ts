import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import supertest from 'supertest';
import { claimQuotaIn } from '../../../api/middleware/quotaLeases.js';
import type { RateLimits } from '../../../api/middleware/rateLimit.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { findFreePort } from '../../../contracts/devnet.js';
import { createLogger } from '../../../internal/logger.js';
import { createPgPool } from '../../../internal/pg.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { login } from './authFlow.js';

/** Waits for the start of the next wall-clock second, so a burst lands in one fixed window. */
async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
}

describe('rate limits per tier, shared across API processes', function () {
  const limits: RateLimits = { anonymous: 2, tiers: [3, 5, 8] };
  let h: Harness;
  let apps: ReturnType<typeof supertest>[];

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const make = () =>
      supertest(
        h
          .createApp({
            config: { ...h.config, rateLimits: limits } as typeof h.config,
          })
          .callback(),
      );
    apps = [make(), make()];
  });
  after(async () => h?.close());

  it('answers 429 with RateLimit-* and Retry-After once a client IP passes the anonymous limit, across two apps', async function () {
    await nextSecond();
    const first = await apps[0]!.get('/v4/chains').expect(200);
    expect(first.headers).to.include({ 'ratelimit-limit': '2', 'ratelimit-remaining': '1', 'ratelimit-reset': '1' });
    const second = await apps[1]!.get('/v4/chains').expect(200);
    expect(second.headers['ratelimit-remaining']).to.equal('0');
    const refused = await apps[0]!.get('/v4/chains').expect(429);
    expect(refused.headers).to.include({ 'ratelimit-limit': '2', 'ratelimit-remaining': '0', 'retry-after': '1' });
    expect(refused.headers['content-type']).to.match(/application\/problem\+json/);
    expect(refused.body).to.include({ status: 429, code: 'RATE_LIMITED' });
    await nextSecond();
    await apps[1]!.get('/v4/chains').expect(200);
  });

  it("gives a key its tier's limit (tier 0, then tier 1) in its own bucket", async function () {
    const session = await login(h, HARDHAT_TEST_KEYS[0]);
    await nextSecond();
    const key = (
      await apps[0]!
        .post('/v4/developer/keys/')
        .set('Cookie', session.cookie)
        .send({ description: 'limited' })
        .expect(200)
    ).body;
    await nextSecond();
    const burst = async (n: number) =>
      (
        await Promise.all(
          Array.from({ length: n }, (_, i) => apps[i % 2]!.get('/v4/chains').set('x-api-key', key.rawKey)),
        )
      )
        .map((r) => r.status)
        .sort();
    expect(await burst(4)).to.deep.equal([200, 200, 200, 429]);
    await h.deps.pg.query('UPDATE api_keys SET tier = 1 WHERE id = $1', [key.id]);
    await nextSecond();
    expect(await burst(6)).to.deep.equal([200, 200, 200, 200, 200, 429]);
    const res = await apps[0]!.get('/v4/api-keys/validate').set('x-api-key', key.rawKey);
    expect(res.headers['ratelimit-limit']).to.equal('5');
  });

  it('marks error responses too, and never limits the liveness and readiness probes', async function () {
    await nextSecond();
    const missing = await apps[0]!.get('/v4/no-such-route').expect(404);
    expect(missing.headers['ratelimit-limit']).to.equal('2');
    for (let i = 0; i < 4; i++) {
      for (const probe of ['/v4/health/live', '/v4/health/ready']) {
        const res = await apps[0]!.get(probe).expect(200);
        expect(res.headers).not.to.have.property('ratelimit-limit');
      }
    }
    // The operators' view is public and costly: limited like any route (M3 of #29).
    const health = [(await apps[0]!.get('/v4/health')).status, (await apps[0]!.get('/v4/health')).status];
    expect(health, 'the second of the limit, then past it').to.deep.equal([200, 429]);
  });

  it('claims quota exactly under concurrency, in one statement batch that takes any bucket text literally, and rolls back a failed one', async function () {
    const claim = claimQuotaIn(h.apiPg);
    const window = Math.floor(Date.now() / 1000) + 3600; // a window no request of the other tests uses
    const bucket = "ip:'; DROP TABLE rate_limit_windows; --\\";
    const counts = await Promise.all(Array.from({ length: 25 }, () => claim(bucket, window, 2)));
    expect([...counts].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 25 }, (_, i) => 2 * (i + 1)));
    const { rows } = await h.deps.pg.query<{ count: number }>(
      'SELECT count FROM rate_limit_windows WHERE bucket = $1 AND window_start = to_timestamp($2)',
      [bucket, window],
    );
    expect(rows).to.deep.equal([{ count: 50 }]);
    // Out of range for to_timestamp: the statement fails inside the transaction; the pool still serves the next claim.
    await claim('ip:x', 9e15, 1).then(
      () => expect.fail('accepted an impossible window'),
      (error: Error) => expect(error.message).to.match(/out of range/),
    );
    expect(await claim(bucket, window, 1)).to.equal(51);
    for (const [w, n] of [
      [1.5, 1],
      [window, 0],
      [window, 2.5],
    ] as const) {
      await claim(bucket, w, n).then(
        () => expect.fail(`accepted window ${w}, claim ${n}`),
        (error: Error) => expect(error).to.be.instanceOf(TypeError),
      );
    }
  });

  it('leases large limits in chunks: one upsert per ⌊limit/20⌋ requests, and two processes together never pass the limit', async function () {
    const big = { anonymous: 40, tiers: [40, 40, 40] };
    const make = () =>
      supertest(
        h
          .createApp({
            config: { ...h.config, rateLimits: big } as typeof h.config,
          })
          .callback(),
      );
    const pair = [make(), make()];
    await nextSecond();
    const window = Math.floor(Date.now() / 1000);
    const first = await pair[0]!.get('/v4/chains').expect(200);
    expect(first.headers['ratelimit-remaining']).to.equal('39');
    const counted = async () =>
      (
        await h.deps.pg.query<{ count: number }>(
          `SELECT count FROM rate_limit_windows WHERE bucket LIKE 'ip:%' AND window_start = to_timestamp($1)`,
          [window],
        )
      ).rows[0]?.count;
    expect(await counted(), 'one claim of ⌊40/20⌋ = 2 hits').to.equal(2);
    await pair[0]!.get('/v4/chains').expect(200);
    expect(await counted(), 'the second request is served from the lease').to.equal(2);
    const statuses: number[] = [];
    for (let i = 0; i < 44; i++) statuses.push((await pair[i % 2]!.get('/v4/chains')).status);
    expect(Math.floor(Date.now() / 1000), 'the burst stayed in one window').to.equal(window);
    expect(statuses.filter((s) => s === 200).length, 'passed of the 44 after the first two').to.equal(38);
    expect(statuses.slice(-4)).to.deep.equal([429, 429, 429, 429]);
  });

  it('gives each client behind a trusted proxy its own bucket (TRUSTED_PROXIES), and ignores X-Forwarded-For without it', async function () {
    const proxied = supertest(
      h
        .createApp({
          config: { ...h.config, rateLimits: limits, trustedProxies: { hops: 1 } } as typeof h.config,
        })
        .callback(),
    );
    await nextSecond();
    const from = (app: ReturnType<typeof supertest>, client: string) =>
      app.get('/v4/chains').set('X-Forwarded-For', client);
    // Two clients at the limit each: both still served, each bucket its own.
    const statuses = (
      await Promise.all([
        from(proxied, '198.51.100.1'),
        from(proxied, '198.51.100.1'),
        from(proxied, '198.51.100.2'),
        from(proxied, '198.51.100.2'),
      ])
    ).map((r) => r.status);
    expect(statuses).to.deep.equal([200, 200, 200, 200]);
    expect((await from(proxied, '198.51.100.1')).status).to.equal(429);
    // What a caller writes left of what the proxy appended is not theirs to choose.
    expect((await from(proxied, '203.0.113.7, 198.51.100.1')).status).to.equal(429);
    await nextSecond();
    // Without the setting every caller is the proxy (the socket peer): forwarded headers change nothing.
    const direct = (
      await Promise.all([
        from(apps[0]!, '198.51.100.3'),
        from(apps[0]!, '198.51.100.4'),
        from(apps[0]!, '198.51.100.5'),
      ])
    )
      .map((r) => r.status)
      .sort();
    expect(direct).to.deep.equal([200, 200, 429]);
  });

  it('counts the same limits in memory, per process, when PostgreSQL cannot be reached, and logs it once with context (L4 of #29)', async function () {
    const lines: { msg: string; bucket?: string; limit?: number; path?: string; err?: unknown }[] = [];
    const logger = createLogger({
      level: 'info',
      name: 'test',
      destination: { write: (line) => void lines.push(JSON.parse(line)) },
    });
    // A pool to a closed port: the limiter's PostgreSQL is unreachable, the shared one is untouched.
    const brokenPg = createPgPool({
      connectionString: `postgres://postgres@127.0.0.1:${await findFreePort()}/nowhere`,
      applicationName: 'test-broken',
      readOnly: true,
    });
    try {
      const app = supertest(
        h
          .createApp({
            config: { ...h.config, rateLimits: limits } as typeof h.config,
            logger,
            pg: brokenPg,
          })
          .callback(),
      );
      await nextSecond();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await app.get('/v4/enums')).status);
      expect(statuses).to.deep.equal([200, 200, 429, 429, 429]);
      const fallbacks = lines.filter((l) => l.msg.startsWith('rate limit check failed'));
      expect(fallbacks, 'logged when it starts, not once per request').to.have.length(1);
      expect(fallbacks[0]).to.include({ limit: limits.anonymous, path: '/v4/enums' });
      expect(fallbacks[0]!.bucket).to.match(/^ip:/);
      expect(fallbacks[0]!.err).to.be.an('object');
      await nextSecond();
      expect((await app.get('/v4/enums')).status, 'a new window').to.equal(200);
    } finally {
      await brokenPg.end();
    }
  });

  it('refuses an address sending unknown API keys before looking them up: past the anonymous limit one by one, past the highest limit at once (L4 of #29)', async function () {
    // The app's own real pool, its credential queries counted.
    const pool = createPgPool({
      connectionString: h.config.databaseUrl,
      applicationName: 'test-counted',
      readOnly: true,
    });
    let lookups = 0;
    const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
    pool.query = ((...args: unknown[]) => {
      if (String(args[0]).includes('FROM api_keys')) lookups += 1;
      return query(...args);
    }) as typeof pool.query;
    try {
      const app = supertest(
        h
          .createApp({
            config: { ...h.config, rateLimits: limits } as typeof h.config,
            pg: pool,
          })
          .callback(),
      );
      const randomKey = () => `rk_${randomBytes(32).toString('base64url')}`;
      await nextSecond();
      const sequential: number[] = [];
      for (let i = 0; i < 20; i++) sequential.push((await app.get('/v4/enums').set('x-api-key', randomKey())).status);
      const sequentialLookups = lookups;
      await nextSecond();
      lookups = 0;
      const concurrent = (
        await Promise.all(Array.from({ length: 30 }, () => app.get('/v4/enums').set('x-api-key', randomKey())))
      ).map((r) => r.status);
      console.log(
        `      credential queries: ${sequentialLookups} for 20 sequential random keys, ${lookups} for 30 concurrent ones (limits ${JSON.stringify(limits)})`,
      );
      expect(sequential).to.deep.equal([200, 200, ...Array(18).fill(429)]);
      expect(sequentialLookups, 'one by one: the anonymous limit').to.equal(limits.anonymous);
      expect(concurrent.filter((s) => s === 200)).to.have.length(limits.anonymous);
      expect(lookups, 'at once: the highest limit').to.be.at.most(Math.max(...limits.tiers));
    } finally {
      await pool.end();
    }
  });
});
