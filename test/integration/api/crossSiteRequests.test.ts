import { expect } from 'chai';
import supertest from 'supertest';
import { createRouters } from '../../../api/app.js';
import { routeOperations, type RouteOperation } from '../../../api/openapi/routeLayers.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { jwtCookieOf, login, signedLogin } from './authFlow.js';
import { createOwnedResources, type OwnedResources } from './ownedResources.js';

/** The attacker: a page on another port of the same host (same site, so the Lax cookie travels). */
const ATTACKER = 'http://127.0.0.1:8080';
const LISTED = 'https://app.example';
const API_HOST = 'api.example';

type Method = 'post' | 'put' | 'patch' | 'delete';
type Prepared = { url: string; body: Record<string, unknown>; cookie: string };
/** alice's resources (createOwnedResources), one key and list to edit, fresh sessions and a login body (bob's). */
type Fixtures = OwnedResources & {
  keyId: string;
  list: string;
  freshCookie(): Promise<string>;
  freshLogin(): Promise<Record<string, unknown>>;
};

/**
 * Concrete requests for the routes a session may act on, each with fresh resources, so an allowed
 * caller's request really changes something (and a refused one would have). Every other route gets
 * its parameters filled generically and an empty body: the refusal comes before any validation.
 */
const CONCRETE: Record<string, { prepare(f: Fixtures): Promise<Partial<Prepared>>; allowed?: number }> = {
  'PATCH /v4/campaigns/:id/privacy': {
    prepare: async (f) => ({ url: `/v4/campaigns/${f.campaign}/privacy`, body: { recipientsCanView: true } }),
    allowed: 200,
  },
  'POST /v4/campaigns/:id/access/grant': {
    prepare: async (f) => ({
      url: `/v4/campaigns/${f.campaign}/access/grant`,
      body: { userAddress: f.freshAddress() },
    }),
    allowed: 200,
  },
  'DELETE /v4/campaigns/:id/access/revoke': {
    prepare: async (f) => ({
      url: `/v4/campaigns/${f.campaign}/access/revoke`,
      body: { userAddress: await f.grantee() },
    }),
    allowed: 200,
  },
  'POST /v4/auth/login': { prepare: async (f) => ({ body: await f.freshLogin() }), allowed: 200 },
  // Each allowed call revokes the session it carries: a fresh one each time.
  'DELETE /v4/auth/revoke': { prepare: async (f) => ({ cookie: await f.freshCookie() }), allowed: 200 },
  'POST /v4/developer/keys': { prepare: async (f) => ({ body: { description: f.unique() } }), allowed: 200 },
  'PATCH /v4/developer/keys/:id': {
    prepare: async (f) => ({ url: `/v4/developer/keys/${f.keyId}`, body: { description: f.unique() } }),
    allowed: 200,
  },
  'DELETE /v4/developer/keys/:id': {
    prepare: async (f) => ({ url: `/v4/developer/keys/${(await f.newKey()).id}` }),
    allowed: 200,
  },
  'POST /v4/users/:address/terms': {
    prepare: async (f) => ({ url: `/v4/users/${f.session.address}/terms`, body: { chainId: 31337 } }),
    allowed: 200,
  },
  'POST /v4/campaign-lists': { prepare: async (f) => ({ body: { name: f.unique() } }), allowed: 200 },
  'PATCH /v4/campaign-lists/:name': {
    prepare: async (f) => ({ url: `/v4/campaign-lists/${f.list}`, body: { add: [String(++campaignIds)] } }),
    allowed: 200,
  },
  'DELETE /v4/campaign-lists/:name': {
    prepare: async (f) => ({ url: `/v4/campaign-lists/${await f.freshList()}` }),
    allowed: 200,
  },
  'PUT /v4/key-value-stores/:key/entries': {
    prepare: async (f) => ({
      url: `/v4/key-value-stores/${f.kvKey}/entries`,
      body: { address: f.freshAddress(), value: '{}' },
    }),
    allowed: 200,
  },
  'DELETE /v4/key-value-stores/:key/entries/:address': {
    prepare: async (f) => ({ url: `/v4/key-value-stores/${f.kvKey}/entries/${await f.freshEntry()}` }),
    allowed: 200,
  },
  'POST /v4/organizations': { prepare: async (f) => ({ body: { name: f.unique() } }), allowed: 200 },
  'POST /graphql/v1': { prepare: async () => ({ body: { query: '{ __typename }' } }), allowed: 200 },
};

/** Campaign ids added to a list (digits only). */
let campaignIds = 0;

/** Foreign callers: each sends the body in a media type a page can send without a preflight (or JSON). */
const FOREIGN: { name: string; headers: Record<string, string>; encoding: 'form' | 'multipart' | 'text' | 'json' }[] = [
  { name: `Origin ${ATTACKER}, form`, headers: { Origin: ATTACKER }, encoding: 'form' },
  {
    name: 'Origin https://evil.example, multipart',
    headers: { Origin: 'https://evil.example' },
    encoding: 'multipart',
  },
  { name: 'Origin null, text/plain', headers: { Origin: 'null' }, encoding: 'text' },
  { name: 'no Origin, Sec-Fetch-Site same-site, JSON', headers: { 'Sec-Fetch-Site': 'same-site' }, encoding: 'json' },
];
/** Allowed callers: a listed origin, the API's own origin (from Host), none (curl, servers). */
const ALLOWED: { name: string; headers: Record<string, string> }[] = [
  { name: `listed ${LISTED}`, headers: { Origin: LISTED } },
  {
    name: `own http://${API_HOST}`,
    headers: { Origin: `http://${API_HOST}`, Host: API_HOST, 'Sec-Fetch-Site': 'same-origin' },
  },
  { name: 'no Origin', headers: {} },
];

const keyOf = (op: RouteOperation) => `${op.method.toUpperCase()} ${op.path.replace(/(.)\/$/, '$1')}`;

/** Sends `body` as `encoding`: what a form, a multipart form, a text/plain fetch or a JSON fetch puts on the wire. */
function withBody(
  req: supertest.Test,
  body: Record<string, unknown>,
  encoding: 'form' | 'multipart' | 'text' | 'json',
) {
  const flat = Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as const);
  if (encoding === 'form') return req.type('form').send(Object.fromEntries(flat));
  if (encoding === 'multipart') return flat.reduce((r, [k, v]) => r.field(k, v), req.field('_', '_'));
  if (encoding === 'text') return req.set('Content-Type', 'text/plain').send(JSON.stringify(body));
  return req.send(body);
}

describe('cross-site requests: a state-changing request with the session cookie from a foreign page is refused (M1 of #29)', function () {
  let h: Harness;
  let f: Fixtures;
  let aliceKey: string;

  /** One digest of every table's rows: equal before and after means nothing was written. */
  async function databaseDigest(): Promise<Record<string, string>> {
    const { rows: tables } = await h.deps.pg.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
          -- flushed by the usage buffer's own timer (counts of the setup's x-api-key calls), not by a request
          AND table_name <> 'api_key_usage'
        ORDER BY table_name`,
    );
    const out: Record<string, string> = {};
    for (const { name } of tables) {
      const { rows } = await h.deps.pg.query<{ d: string }>(
        `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS d FROM "${name}" t`,
      );
      out[name] = rows[0]!.d;
    }
    return out;
  }

  before(async function () {
    h = await createHarness({ chainIds: [31337], env: { CORS_ORIGINS: LISTED } });
    const own = await createOwnedResources(h, HARDHAT_TEST_KEYS[0], { namePrefix: 'x' });
    aliceKey = own.apiKey.rawKey;
    f = {
      ...own,
      keyId: (await own.newKey()).id,
      list: await own.freshList(),
      freshCookie: async () => (await login(h, HARDHAT_TEST_KEYS[0])).cookie,
      freshLogin: async () => {
        const signed = await signedLogin(h, HARDHAT_TEST_KEYS[1]);
        return { address: signed.address, message: signed.message, signature: signed.signature };
      },
    };
  });
  after(async () => h?.close());

  /** Every state-changing operation of every router the app mounts, read from the stacks (trailing-slash twins once). */
  function unsafeOperations(): RouteOperation[] {
    const { routes, pageRouters } = createRouters({
      config: h.config,
      logger: h.deps.logger,
      pg: h.apiPg,
      es: h.deps.es,
      rpc: h.deps.rpc,
    });
    const seen = new Set<string>();
    return [routes, ...pageRouters]
      .flatMap((router) => routeOperations(router))
      .filter((op) => !['get', 'head', 'options'].includes(op.method))
      .filter((op) => !seen.has(keyOf(op)) && Boolean(seen.add(keyOf(op))));
  }

  /** The request for `op`: its concrete form when listed in CONCRETE, else generic parameters and no body. */
  async function prepare(op: RouteOperation): Promise<Prepared> {
    const generic = op.path
      .replace(/(.)\/$/, '$1')
      .replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
        name === 'address' ? f.session.address : name === 'key' ? f.kvKey : 'x1',
      );
    const concrete = (await CONCRETE[keyOf(op)]?.prepare(f)) ?? {};
    return { url: concrete.url ?? generic, body: concrete.body ?? {}, cookie: concrete.cookie ?? f.session.cookie };
  }

  it('refuses every state-changing route × every foreign caller (403 problem, nothing written), and lets listed, own-origin and origin-less callers through', async function () {
    const ops = unsafeOperations();
    expect(ops.length, 'state-changing routes found in the stacks').to.be.greaterThan(30);
    expect(
      Object.keys(CONCRETE).filter((k) => !ops.some((op) => keyOf(op) === k)),
      'CONCRETE rows naming no route',
    ).to.deep.equal([]);
    const wrong: string[] = [];
    // Foreign callers first: every request prepared (fresh resources made) before the digest.
    const prepared = await Promise.all(ops.map(async (op) => ({ op, req: await prepare(op) })));
    const before = await databaseDigest();
    for (const { op, req } of prepared) {
      for (const caller of FOREIGN) {
        const res = await withBody(
          h
            .request()
            [op.method as Method](req.url)
            .set({ Cookie: req.cookie, ...caller.headers }),
          req.body,
          caller.encoding,
        );
        const refused =
          res.status === 403 &&
          /application\/problem\+json/.test(res.headers['content-type'] ?? '') &&
          res.body.code === 'CROSS_SITE_REQUEST_REFUSED' &&
          res.body.title === 'Cross-site request refused' &&
          String(res.body.detail).includes(caller.headers['Origin'] ?? 'Sec-Fetch-Site: same-site');
        if (!refused) wrong.push(`${keyOf(op)} from ${caller.name}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(wrong, 'foreign callers not refused').to.deep.equal([]);
    expect(await databaseDigest(), 'tables after the foreign requests').to.deep.equal(before);
    await h.request().get('/v4/auth/me').set('Cookie', f.session.cookie).expect(200);

    let succeeded = 0;
    for (const op of ops) {
      for (const caller of ALLOWED) {
        const req = await prepare(op);
        const res = await h
          .request()
          [op.method as Method](req.url)
          .set({ Cookie: req.cookie, ...caller.headers })
          .send(req.body);
        const expected = CONCRETE[keyOf(op)]?.allowed;
        if (res.body?.code === 'CROSS_SITE_REQUEST_REFUSED' || (expected !== undefined && res.status !== expected))
          wrong.push(`${keyOf(op)} from ${caller.name}: ${res.status} ${JSON.stringify(res.body)}`);
        if (res.status < 300) succeeded++;
      }
    }
    expect(wrong, 'allowed callers refused or answered otherwise').to.deep.equal([]);
    const total = ops.length * (FOREIGN.length + ALLOWED.length);
    console.log(
      `      cross-site matrix: ${ops.length} state-changing routes × ${FOREIGN.length} foreign + ${ALLOWED.length} allowed callers = ${total} requests; ${ops.length * FOREIGN.length} refused, ${succeeded} allowed answered 2xx`,
    );
    expect(succeeded, 'allowed callers whose write went through').to.be.at.least(
      Object.values(CONCRETE).filter((c) => c.allowed === 200).length * ALLOWED.length,
    );
  });

  it("refuses the issue's form POST to /v4/developer/keys from another port with the victim's cookie, and creates no key", async function () {
    const keys = async () =>
      (await h.request().get('/v4/developer/keys').set('Cookie', f.session.cookie).expect(200)).body.length as number;
    const count = await keys();
    const res = await h
      .request()
      .post('/v4/developer/keys')
      .set({ Origin: ATTACKER, Cookie: f.session.cookie, 'Content-Type': 'application/x-www-form-urlencoded' })
      .send('description=x')
      .expect(403);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body).to.include({
      type: '/problems/cross-site-request-refused',
      title: 'Cross-site request refused',
      status: 403,
      code: 'CROSS_SITE_REQUEST_REFUSED',
      origin: ATTACKER,
      instance: '/v4/developer/keys',
    });
    expect(res.body.detail).to.include(`origin ${ATTACKER}`).and.to.include('CORS_ORIGINS');
    expect(await keys(), 'no key created').to.equal(count);
    // The same request from the listed origin, from the API's own origin (PUBLIC_BASE_URL), or without an Origin goes through.
    for (const origin of [LISTED, h.config.signIn.uri, undefined])
      await h
        .request()
        .post('/v4/developer/keys')
        .set({
          Cookie: f.session.cookie,
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(origin ? { Origin: origin } : {}),
        })
        .send('description=x')
        .expect(200);
    expect(await keys()).to.equal(count + 3);
  });

  it("refuses a sign-in from a page elsewhere even without a cookie (login CSRF: the attacker's own signed message), and signs in from allowed origins", async function () {
    const attempt = async (headers: Record<string, string>) => {
      const signed = await signedLogin(h, HARDHAT_TEST_KEYS[2]);
      return h
        .request()
        .post('/v4/auth/login')
        .set({ 'Content-Type': 'application/x-www-form-urlencoded', ...headers })
        .send(
          new URLSearchParams({
            address: signed.address,
            message: signed.message,
            signature: signed.signature,
          }).toString(),
        );
    };
    for (const foreign of [{ Origin: ATTACKER }, { 'Sec-Fetch-Site': 'cross-site' }] as Record<string, string>[]) {
      const res = await attempt(foreign);
      expect(res.status, JSON.stringify(foreign)).to.equal(403);
      expect(res.body.code).to.equal('CROSS_SITE_REQUEST_REFUSED');
      expect(jwtCookieOf(res), 'no session cookie set').to.equal(undefined);
    }
    for (const allowed of [{ Origin: LISTED }, { Origin: h.config.signIn.uri }, {}] as Record<string, string>[]) {
      const res = await attempt(allowed);
      expect(res.status, JSON.stringify(allowed)).to.equal(200);
      expect(jwtCookieOf(res), 'session cookie').to.be.a('string');
    }
  });

  it('lets x-api-key, Authorization: Bearer and back-office callers write from a foreign origin (no ambient credential); a cookie sent along is still checked', async function () {
    const list = await h
      .request()
      .post('/v4/campaign-lists')
      .set({ Origin: ATTACKER, 'x-api-key': aliceKey })
      .send({ name: f.unique() })
      .expect(200);
    expect(list.body).to.have.property('name');
    const token = f.session.cookie.replace(/^jwt=/, '');
    await h
      .request()
      .post('/v4/developer/keys')
      .set({ Origin: ATTACKER, authorization: `Bearer ${token}` })
      .send({ description: 'bearer' })
      .expect(200);
    await h
      .request()
      .post('/v4/internal/jobs/benchmark-rate/pause')
      .set({ Origin: 'null', authorization: TEST_BACK_OFFICE_TOKEN })
      .expect(200);
    await h
      .request()
      .post('/v4/internal/jobs/benchmark-rate/resume')
      .set({ 'Sec-Fetch-Site': 'cross-site', authorization: TEST_BACK_OFFICE_TOKEN })
      .expect(200);
    // With the cookie as well, the session wins in authentication: the request is the cookie's, and refused.
    const both = await h
      .request()
      .post('/v4/campaign-lists')
      .set({ Origin: ATTACKER, 'x-api-key': aliceKey, Cookie: f.session.cookie })
      .send({ name: f.unique() })
      .expect(403);
    expect(both.body.code).to.equal('CROSS_SITE_REQUEST_REFUSED');
  });

  it('takes the own origin from Host and, behind TRUSTED_PROXIES, X-Forwarded-Proto; reads and preflights are never refused', async function () {
    const keyFrom = (headers: Record<string, string>) =>
      h
        .request()
        .post('/v4/developer/keys')
        .set({ Cookie: f.session.cookie, ...headers })
        .send({ description: 'own' });
    expect((await keyFrom({ Host: 'localhost:3000', Origin: 'http://localhost:3000' })).status).to.equal(200);
    // Without trusted proxies the forwarded scheme is the caller's own word: https://<host> is not this origin.
    const forwarded = { Host: API_HOST, Origin: `https://${API_HOST}`, 'X-Forwarded-Proto': 'https' };
    expect((await keyFrom(forwarded)).status).to.equal(403);
    const behindProxy = h.createApp({
      config: { ...h.config, trustedProxies: { hops: 1 } },
    });
    const viaProxy = await supertest(behindProxy.callback())
      .post('/v4/developer/keys')
      .set({ Cookie: f.session.cookie, ...forwarded })
      .send({ description: 'proxied' });
    expect(viaProxy.status).to.equal(200);
    await h.request().get('/v4/developer/keys').set({ Cookie: f.session.cookie, Origin: ATTACKER }).expect(200);
    await h
      .request()
      .options('/v4/developer/keys')
      .set({ Cookie: f.session.cookie, Origin: ATTACKER, 'Access-Control-Request-Method': 'POST' })
      .expect(204);
  });
});
