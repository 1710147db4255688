import { expect } from 'chai';
import http, { type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { generatePrivateKey } from 'viem/accounts';
import { signSession } from '../../../api/identity/jwt.js';
import { createKey } from '../../../api/routes/developer/repo.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { login } from './authFlow.js';

/** Bounds of this suite's API (env), small enough to reach with a handful of streams. */
const STREAMS_PER_ADDRESS = 4;
const STREAMS_MAX = 7;
const KEYS_PER_ADDRESS_PER_DAY = 3;

type Stream = { status: number; body: string; headers: http.IncomingHttpHeaders; req: ClientRequest };

describe('per-address limits that hold against free wallets and API keys (#43 F5)', function () {
  let h: Harness;
  const servers: http.Server[] = [];

  /** An API process of its own (its own stream slots), listening on a real socket for streams. */
  const serve = async () => {
    const server = http.createServer(h.createApp().callback());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    /** Opens GET /v4/events as a stream from `client` (X-Forwarded-For behind the one trusted proxy), resolved at its status. */
    return (client: string, headers: Record<string, string> = {}) =>
      new Promise<Stream>((resolve, reject) => {
        const req = http.get({
          port,
          path: '/v4/events?after=latest',
          headers: { accept: 'text/event-stream', 'x-forwarded-for': client, ...headers },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          let body = '';
          res.setEncoding('utf8');
          if (res.statusCode === 200) return resolve({ status: 200, body, headers: res.headers, req });
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers, req }));
        });
      });
  };
  /** A fresh wallet's session: free to make, as many as a caller likes. */
  const freshWallet = () => ({
    Cookie: `jwt=${signSession({ secret: h.config.jwtSecret, address: `0x${generatePrivateKey().slice(26)}`, tier: 0 }).token}`,
  });

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({
      chainIds: [31337],
      env: {
        TRUSTED_PROXIES: '1',
        EVENTS_STREAMS_PER_ADDRESS: String(STREAMS_PER_ADDRESS),
        EVENTS_STREAMS_MAX: String(STREAMS_MAX),
        API_KEYS_PER_ADDRESS_PER_DAY: String(KEYS_PER_ADDRESS_PER_DAY),
      },
    });
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
  after(async () => h?.close());

  it('bounds event streams per client address whatever the wallets, an IPv6 client by its /64', async function () {
    const stream = await serve();
    // Each fresh wallet may hold 5 streams of its own; rotating addresses within one /64 is one client.
    const from64 = await Promise.all(
      Array.from({ length: STREAMS_PER_ADDRESS }, (_, i) => stream(`2001:db8:5:6::${i + 1}`, freshWallet())),
    );
    expect(from64.map((s) => s.status)).to.deep.equal(Array(STREAMS_PER_ADDRESS).fill(200));
    const past = await stream('2001:db8:5:6:ffff::99', freshWallet());
    expect(past.status).to.equal(429);
    expect(JSON.parse(past.body)).to.include({
      code: 'TOO_MANY_STREAMS',
      maxStreams: STREAMS_PER_ADDRESS,
      scope: 'address',
    });
    // Another /64 is another client.
    expect((await stream('2001:db8:5:7::1', freshWallet())).status).to.equal(200);
  });

  it('keys an IPv4-mapped client as its IPv4 address: the anonymous bound covers both spellings', async function () {
    const stream = await serve();
    const a = await stream('198.51.100.9');
    const b = await stream('::ffff:c633:6409');
    expect([a.status, b.status]).to.deep.equal([200, 200]);
    const c = await stream('::ffff:198.51.100.9');
    expect(c.status).to.equal(429);
    expect(JSON.parse(c.body)).to.include({ code: 'TOO_MANY_STREAMS', scope: 'caller' });
  });

  it('bounds the streams of the process in all: 503 with Retry-After past EVENTS_STREAMS_MAX', async function () {
    const stream = await serve();
    const served = await Promise.all(
      Array.from({ length: STREAMS_MAX }, (_, i) => stream(`203.0.113.${i + 1}`, freshWallet())),
    );
    expect(served.map((s) => s.status)).to.deep.equal(Array(STREAMS_MAX).fill(200));
    const full = await stream('203.0.113.200');
    expect(full.status).to.equal(503);
    expect(full.headers['retry-after']).to.equal('5');
    expect(JSON.parse(full.body)).to.include({ code: 'TOO_MANY_STREAMS', maxStreams: STREAMS_MAX, scope: 'process' });
  });

  it('limits API keys created from one client address in 24 hours, whatever the wallets', async function () {
    const createFrom = async (client: string) => {
      const session = await login(h, generatePrivateKey());
      return h
        .request()
        .post('/v4/developer/keys/')
        .set('Cookie', session.cookie)
        .set('x-forwarded-for', client)
        .send({ description: 'free' });
    };
    const made: number[] = [];
    for (let i = 0; i < KEYS_PER_ADDRESS_PER_DAY; i++) made.push((await createFrom(`2001:db8:7:8::${i + 1}`)).status);
    expect(made).to.deep.equal(Array(KEYS_PER_ADDRESS_PER_DAY).fill(200));
    const refused = await createFrom('2001:db8:7:8:9::1');
    expect(refused.status).to.equal(429);
    expect(refused.body).to.include({
      code: 'RATE_LIMITED',
      limit: KEYS_PER_ADDRESS_PER_DAY,
      windowSeconds: 86_400,
      scope: 'address',
    });
    expect(Number(refused.headers['retry-after'])).to.be.within(86_000, 86_400);
    expect((await createFrom('2001:db8:7:9::1')).status, 'another /64').to.equal(200);
  });

  /** An API process with these rate limits and per-address cap, on the suite's services. */
  const limitedApp = (rateLimits: { anonymous: number; tiers: number[] }, requestsPerAddress: number) =>
    supertest(
      h
        .createApp({
          config: {
            ...h.config,
            rateLimits,
            clientLimits: { ...h.config.clientLimits, requestsPerAddress },
          } as typeof h.config,
        })
        .callback(),
    );

  it('caps the requests of one client address across its API keys and API processes, each key keeping its own limit under it', async function () {
    const limits = { anonymous: 2, tiers: [3, 3, 3] };
    const perAddress = 4;
    const make = () => limitedApp(limits, perAddress);
    // Two API processes: each one's in-memory screen lets an address pass perAddress a second; the shared bound holds for both.
    const apps = [make(), make()];
    // Keys of three tiers (3/s each): the keys of one tier share its limit (next case), those of three do not.
    const keys = await Promise.all(
      Array.from({ length: 3 }, async (_, tier) => {
        const owner = `0x${generatePrivateKey().slice(26)}`;
        const key = await createKey(h.deps.pg, owner, 'free', { from: 'test', perDay: 100 });
        await h.deps.pg.query('UPDATE api_keys SET tier = $2 WHERE id = $1', [key.id, tier]);
        return key.rawKey;
      }),
    );
    const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    await nextSecond();
    const start = Date.now();
    // Three keys at 3/s each would pass 9.
    const responses = await Promise.all(
      keys.flatMap((key, k) =>
        [0, 1, 2].map((i) =>
          apps[(k + i) % 2]!.get('/v4/chains').set({ 'x-api-key': key, 'x-forwarded-for': '2001:db8:a:b::1' }),
        ),
      ),
    );
    const windows = Math.floor(Date.now() / 1000) - Math.floor(start / 1000) + 1;
    const served = responses.filter((r) => r.status === 200).length;
    expect(served, `served of 9 in ${windows} window(s)`).to.be.within(1, perAddress * windows);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).to.have.length(9 - served);
    for (const r of refused) {
      expect(r.body).to.include({ code: 'RATE_LIMITED', limit: perAddress, scope: 'address' });
      expect(r.headers).to.include({ 'ratelimit-limit': String(perAddress) });
    }
    // One key alone still meets its own limit first.
    await nextSecond();
    const one: number[] = [];
    for (let i = 0; i < 4; i++)
      one.push(
        (await apps[i % 2]!.get('/v4/chains').set({ 'x-api-key': keys[0]!, 'x-forwarded-for': '2001:db8:a:c::1' }))
          .status,
      );
    expect(one).to.deep.equal([200, 200, 200, 429]);
  });
  it("gives the keys of one tier used from one client address that tier's limit together: free keys do not multiply it", async function () {
    const limits = { anonymous: 2, tiers: [3, 50, 50] };
    const app = limitedApp(limits, 100);
    const keys = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const owner = `0x${generatePrivateKey().slice(26)}`;
        return (await createKey(h.deps.pg, owner, 'free', { from: 'test', perDay: 100 })).rawKey;
      }),
    );
    const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));
    await nextSecond();
    const start = Date.now();
    // Three tier-0 keys at 3/s each would pass 9; under the address's per-address cap (100) too.
    const responses = await Promise.all(
      keys.flatMap((key) =>
        [0, 1, 2].map(() => app.get('/v4/chains').set({ 'x-api-key': key, 'x-forwarded-for': '2001:db8:a:d::1' })),
      ),
    );
    const windows = Math.floor(Date.now() / 1000) - Math.floor(start / 1000) + 1;
    const served = responses.filter((r) => r.status === 200).length;
    expect(served, `served of 9 in ${windows} window(s)`).to.be.within(1, 3 * windows);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).to.have.length(9 - served);
    for (const r of refused) expect(r.body).to.include({ code: 'RATE_LIMITED', limit: 3, scope: 'address' });
    // From another address the same keys pass again.
    await nextSecond();
    const other = await app.get('/v4/chains').set({ 'x-api-key': keys[1]!, 'x-forwarded-for': '2001:db8:a:e::1' });
    expect(other.status).to.equal(200);
  });
});
