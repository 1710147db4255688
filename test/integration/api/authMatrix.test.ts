import { expect } from 'chai';
import { signSession } from '../../../api/identity/jwt.js';
import { createRoutes } from '../../../api/routes/index.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { login } from './authFlow.js';

type Credential = 'none' | 'malformed' | 'expired' | 'revoked' | 'otherOwner' | 'correct' | 'apiKeyOnly' | 'backOffice';
const CREDENTIALS: Credential[] = ['none', 'malformed', 'expired', 'revoked', 'otherOwner', 'correct', 'apiKeyOnly', 'backOffice'];
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a row needs from the suite's fixtures: ids of alice's resources, fresh ones for destructive calls. */
type Fixtures = {
  keyId: string; freshKeyId(): Promise<string>; list: string; freshList(): Promise<string>; kvKey: string; freshKvKey(): Promise<string>;
  entry: string; freshEntry(): Promise<string>; campaign: string; grantee(): Promise<string>; unique(): string; alice: string;
};
type Row = { method: Method; route: string; path: (f: Fixtures) => string | Promise<string>; body?: (f: Fixtures) => object; expected: number[] };

const ALICE_ENTRY = `0x${'a1'.repeat(20)}`;
const row = (method: Method, route: string, expected: number[], path?: Row['path'], body?: Row['body']): Row => ({ method, route, path: path ?? (() => route), body, expected });

/**
 * The one table: every route that takes a credential × every kind of credential → the exact status.
 * "correct" is alice's session plus alice's API key, "otherOwner" bob's session plus key, "revoked"
 * a revoked session plus a revoked key, "backOffice" the back-office token alone. Routes are named
 * as the router declares them; the completeness test below fails for any route of the app that is
 * in neither this table nor PUBLIC_ROUTES.
 */
const MATRIX: Row[] = [
  //                                                               none mal  exp  rev  other corr key  bo
  row('get', '/v4/auth/me', /*                                    */ [401, 401, 401, 401, 200, 200, 401, 401]),
  row('delete', '/v4/auth/revoke', /*                             */ [401, 401, 401, 401, 200, 200, 401, 401]),
  row('post', '/v4/auth/link/wallet', /*   IdP off: 404 after auth */ [401, 401, 401, 401, 404, 404, 401, 401], undefined, () => ({ address: ALICE_ENTRY, message: 'm', signature: '0x11' })),
  row('post', '/v4/developer/keys', /*                            */ [401, 401, 401, 401, 200, 200, 401, 401], undefined, () => ({ description: 'matrix' })),
  row('get', '/v4/developer/keys', /*                             */ [401, 401, 401, 401, 200, 200, 401, 401]),
  row('get', '/v4/developer/keys/usage', /*                       */ [401, 401, 401, 401, 200, 200, 401, 401]),
  row('get', '/v4/developer/keys/:id/usage', /*                   */ [401, 401, 401, 401, 404, 200, 401, 401], (f) => `/v4/developer/keys/${f.keyId}/usage`),
  row('patch', '/v4/developer/keys/:id', /*                       */ [401, 401, 401, 401, 404, 200, 401, 401], (f) => `/v4/developer/keys/${f.keyId}`, () => ({ description: 'matrix' })),
  row('delete', '/v4/developer/keys/:id', /*                      */ [401, 401, 401, 401, 404, 200, 401, 401], async (f) => `/v4/developer/keys/${await f.freshKeyId()}`),
  row('get', '/v4/api-keys/validate', /*                          */ [401, 401, 401, 401, 200, 200, 200, 401]),
  row('post', '/v4/campaign-lists', /*                            */ [401, 401, 401, 401, 200, 200, 200, 401], undefined, (f) => ({ name: f.unique() })),
  row('patch', '/v4/campaign-lists/:name', /*                     */ [401, 401, 401, 401, 404, 200, 200, 401], (f) => `/v4/campaign-lists/${f.list}`, () => ({ add: ['1'] })),
  row('delete', '/v4/campaign-lists/:name', /*                    */ [401, 401, 401, 401, 404, 200, 200, 401], async (f) => `/v4/campaign-lists/${await f.freshList()}`),
  row('post', '/v4/organizations', /*                             */ [401, 401, 401, 401, 200, 200, 200, 401], undefined, (f) => ({ name: f.unique() })),
  row('get', '/v4/organizations', /*                              */ [401, 401, 401, 401, 200, 200, 200, 401]),
  row('post', '/v4/internal/key-value-stores/quotas', /*          */ [401, 401, 401, 401, 403, 403, 403, 200], undefined,
    () => ({ ownerAddress: ALICE_ENTRY, maxConfigs: 1, maxSizeLimit: 1, allowedTypes: ['WHITELIST'] })),
  row('post', '/v4/key-value-stores/self', /*   bob has no quota  */ [401, 401, 401, 401, 403, 200, 200, 401], undefined, (f) => ({ key: f.unique(), type: 'WHITELIST' })),
  row('get', '/v4/key-value-stores/self', /*                      */ [401, 401, 401, 401, 200, 200, 200, 401]),
  row('patch', '/v4/key-value-stores/self/:key', /*               */ [401, 401, 401, 401, 404, 200, 200, 401], (f) => `/v4/key-value-stores/self/${f.kvKey}`, () => ({ description: 'matrix' })),
  row('delete', '/v4/key-value-stores/self/:key', /*              */ [401, 401, 401, 401, 404, 200, 200, 401], async (f) => `/v4/key-value-stores/self/${await f.freshKvKey()}`),
  row('put', '/v4/key-value-stores/:key/entries', /*              */ [401, 401, 401, 401, 403, 200, 200, 401], (f) => `/v4/key-value-stores/${f.kvKey}/entries`, () => ({ address: ALICE_ENTRY, value: '{}' })),
  row('put', '/v4/key-value-stores/:key/entries/batch', /*        */ [401, 401, 401, 401, 403, 200, 200, 401], (f) => `/v4/key-value-stores/${f.kvKey}/entries/batch`, () => ({ entries: [{ address: ALICE_ENTRY, value: '{}' }] })),
  // alice's store is not publicly readable: reads need its owner or the back office.
  row('get', '/v4/key-value-stores/:key/entries', /*              */ [401, 401, 401, 401, 403, 200, 200, 200], (f) => `/v4/key-value-stores/${f.kvKey}/entries`),
  row('get', '/v4/key-value-stores/:key/entries/:address', /*     */ [401, 401, 401, 401, 403, 200, 200, 200], (f) => `/v4/key-value-stores/${f.kvKey}/entries/${f.entry}`),
  row('delete', '/v4/key-value-stores/:key/entries/:address', /*  */ [401, 401, 401, 401, 403, 200, 200, 200], async (f) => `/v4/key-value-stores/${f.kvKey}/entries/${await f.freshEntry()}`),
  row('patch', '/v4/campaigns/:id/privacy', /*                    */ [401, 401, 401, 401, 403, 200, 200, 200], (f) => `/v4/campaigns/${f.campaign}/privacy`, () => ({ recipientsCanView: true })),
  row('get', '/v4/campaigns/:id/privacy', /*                      */ [401, 401, 401, 401, 403, 200, 200, 200], (f) => `/v4/campaigns/${f.campaign}/privacy`),
  row('post', '/v4/campaigns/:id/access/grant', /*                */ [401, 401, 401, 401, 403, 200, 200, 200], (f) => `/v4/campaigns/${f.campaign}/access/grant`, () => ({ userAddress: ALICE_ENTRY })),
  row('delete', '/v4/campaigns/:id/access/revoke', /*             */ [401, 401, 401, 401, 403, 200, 200, 200],
    async (f) => `/v4/campaigns/${f.campaign}/access/revoke?to=${await f.grantee()}`),
  row('post', '/v4/credits', /*                                   */ [401, 401, 401, 401, 403, 403, 403, 200], undefined, () => ({ creatorId: 'matrix', amount: 5, label: 'matrix' })),
  row('post', '/v4/credits/subtract', /*                          */ [401, 401, 401, 401, 403, 403, 403, 200], undefined, () => ({ creatorId: 'matrix', amount: 1, label: 'matrix' })),
  row('put', '/v4/credits/:creatorId/allowance', /*               */ [401, 401, 401, 401, 403, 403, 403, 200], () => '/v4/credits/matrix/allowance', () => ({ maxNegativeBalance: 10 })),
  // No verified root in this suite: the back office gets past the guard and hears 404.
  row('get', '/v4/historical/campaign/:campaignId', /*            */ [401, 401, 401, 401, 403, 403, 403, 404], (f) => `/v4/historical/campaign/${f.campaign}?chainId=31337&startDate=1&endDate=2`),
  row('get', '/v4/historical/recipient/:recipient', /*            */ [401, 401, 401, 401, 403, 403, 403, 404], () => `/v4/historical/recipient/${ALICE_ENTRY}?chainId=31337&startDate=1&endDate=2`),
  row('get', '/v4/diffs/leaves', /*                               */ [401, 401, 401, 401, 403, 403, 403, 404], () => `/v4/diffs/leaves?chainId=31337&tokenAddress=${ALICE_ENTRY}`),
  row('get', '/v4/diffs/leaf-breakdowns', /*                      */ [401, 401, 401, 401, 403, 403, 403, 404], () => `/v4/diffs/leaf-breakdowns?chainId=31337&tokenAddress=${ALICE_ENTRY}`),
  row('get', '/v4/diffs/leaf-tokens', /*                          */ [401, 401, 401, 401, 403, 403, 403, 404], () => '/v4/diffs/leaf-tokens?chainId=31337'),
  row('post', '/v4/users/:address/terms', /*  own wallet only      */ [401, 401, 401, 401, 403, 200, 401, 401], (f) => `/v4/users/${f.alice}/terms`, () => ({ chainId: 31337 })),
  // No opportunity in this suite: the back office gets past the guard and hears 404.
  row('patch', '/v4/opportunities/:id', /*                        */ [401, 401, 401, 401, 403, 403, 403, 404], () => '/v4/opportunities/123', () => ({ tags: ['x'] })),
  row('patch', '/v4/opportunities/:id/tags', /*                   */ [401, 401, 401, 401, 403, 403, 403, 404], () => '/v4/opportunities/123/tags', () => ({ add: ['x'] })),
  row('get', '/v4/internal/jobs', /*                               */ [401, 401, 401, 401, 403, 403, 403, 200]),
  row('post', '/v4/internal/jobs/:name/run', /*                   */ [401, 401, 401, 401, 403, 403, 403, 200], () => '/v4/internal/jobs/benchmark-rate/run'),
  row('post', '/v4/internal/jobs/:name/pause', /*                 */ [401, 401, 401, 401, 403, 403, 403, 200], () => '/v4/internal/jobs/benchmark-rate/pause'),
  row('post', '/v4/internal/jobs/:name/resume', /*                */ [401, 401, 401, 401, 403, 403, 403, 200], () => '/v4/internal/jobs/benchmark-rate/resume'),
  row('put', '/v4/internal/jobs/:name/schedule', /*               */ [401, 401, 401, 401, 403, 403, 403, 200], () => '/v4/internal/jobs/benchmark-rate/schedule', () => ({ cron: null })),
  row('get', '/v4/campaigns/:id/access/list', /*                  */ [401, 401, 401, 401, 403, 200, 200, 200], (f) => `/v4/campaigns/${f.campaign}/access/list`),
];

/** Routes that take no credential (some read one when given, e.g. showPrivate, but never require it). */
const PUBLIC_ROUTES = [
  'GET /v4/openapi.json', 'GET /v4/health', 'GET /v4/chains', 'GET /v4/block-timestamp/block', 'GET /v4/block-timestamp/timestamp', 'GET /v4/block-timestamp/bounds',
  'GET /v4/campaigns', 'POST /v4/campaigns/generate-payload', 'GET /v4/campaigns/tx', 'GET /v4/campaigns/:id', 'GET /v4/campaigns/:id/metrics',
  'GET /v4/campaigns/:id/storing-ids', 'GET /v4/campaigns/:id/linked',
  'GET /v4/opportunities', 'GET /v4/opportunities/count', 'GET /v4/opportunities/bins/apr', 'GET /v4/opportunities/bins/tvl', 'GET /v4/opportunities/bins/daily-rewards',
  'GET /v4/opportunities/aggregate/max/:field', 'GET /v4/opportunities/aggregate/min/:field', 'GET /v4/opportunities/aggregate/:field', 'GET /v4/opportunities/:id',
  'GET /v4/opportunities/:id/campaigns', 'GET /v4/opportunities/:id/storing-ids', 'GET /v4/opportunities/:id/apr-records', 'GET /v4/opportunities/:id/tvl-records',
  'GET /v4/opportunities/:id/native-apr-records',
  'GET /v4/tokens', 'GET /v4/tokens/:id', 'GET /v4/protocols', 'GET /v4/roots', 'GET /v4/rewards', 'GET /v4/node', 'GET /v4/templates', 'GET /v4/schemas',
  'GET /v4/creators', 'GET /v4/creators/campaigns/:id', 'GET /v4/creators/:creator', 'GET /v4/creators/:creator/dashboard', 'GET /v4/creators/:creator/opportunities/count',
  'GET /v4/creators/:creator/opportunities', 'GET /v4/creators/:creator/campaigns',
  'GET /v4/auth/idp/start', 'GET /v4/auth/idp/callback', 'GET /v4/auth/nonce/:address', 'POST /v4/auth/login',
  'POST /v4/config/store', 'GET /v4/config/hash/:hash', 'POST /v4/config/decode/args/createCampaign', 'POST /v4/overrides/check', 'GET /v4/overrides/:id/previous-configs',
  'GET /v4/sofr-ratchet/campaign/:campaignId', 'GET /v4/sofr-ratchet/opportunity/:id',
  'GET /v4/enums', 'GET /v4/enums/:enumName', 'GET /v4/enums/:enumName/convert/:value', 'POST /v4/enums/:enumName/batch-convert',
  'GET /v4/claims', 'GET /v4/claims/history/:address', 'GET /v4/claims/latest', 'GET /v4/claims/status', 'GET /v4/claims/count/total', 'GET /v4/claims/count',
  'GET /v4/users/:address/rewards', 'GET /v4/users/:address/rewards/breakdowns', 'GET /v4/users/:address/terms', 'GET /v4/users/:address/recipient/:token', 'GET /v4/users/:address/operator/:operatorAddress', 'GET /v4/users/:address',
  'GET /v4/campaign-lists/:owner', 'GET /v4/campaign-lists/:owner/:name',
  'GET /v4/credits/pricing', 'GET /v4/credits/:creatorId', 'GET /v4/credits/:creatorId/operations',
];

describe('authorization matrix: every credentialed route × every kind of credential', function () {
  let h: Harness;
  let headersOf: (credential: Credential) => Promise<Record<string, string>>;
  let fixtures: Fixtures;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const newKey = async (cookie: string) => (await h.request().post('/v4/developer/keys/').set('Cookie', cookie).send({ description: 'matrix' }).expect(200)).body as { id: string; rawKey: string };
    const alice = await login(h, HARDHAT_TEST_KEYS[0]);
    const bob = await login(h, HARDHAT_TEST_KEYS[1]);
    const aliceKey = await newKey(alice.cookie);
    const bobKey = await newKey(bob.cookie);
    const revokedSession = await login(h, HARDHAT_TEST_KEYS[0]);
    const revokedKey = await newKey(alice.cookie);
    await h.request().delete('/v4/auth/revoke').set('Cookie', revokedSession.cookie).expect(200);
    await h.request().delete(`/v4/developer/keys/${revokedKey.id}`).set('Cookie', alice.cookie).expect(200);
    const expired = signSession({ secret: h.config.jwtSecret, address: alice.address, tier: 0, nowSeconds: Math.floor(Date.now() / 1000) - 2 * 86_400 }).token;
    const asAlice = { Cookie: alice.cookie, 'x-api-key': aliceKey.rawKey };
    const BO = { authorization: TEST_BACK_OFFICE_TOKEN };
    let n = 0;
    const unique = () => `m${Date.now().toString(36)}${n++}`;
    const freshList = async () => {
      const name = unique();
      await h.request().post('/v4/campaign-lists').set(asAlice).send({ name }).expect(200);
      return name;
    };
    // alice: a quota, a private store with one entry, and a campaign she created.
    await h.request().post('/v4/internal/key-value-stores/quotas').set(BO).send({ ownerAddress: alice.address, maxConfigs: 1000, maxSizeLimit: 1000, allowedTypes: ['WHITELIST'] }).expect(200);
    const freshKvKey = async () => (await h.request().post('/v4/key-value-stores/self').set(asAlice).send({ key: unique(), type: 'WHITELIST', publicRead: false }).expect(200)).body.key as string;
    const kvKey = await freshKvKey();
    const freshEntry = async () => {
      const address = `0x${(++n).toString(16).padStart(40, '0')}`;
      await h.request().put(`/v4/key-value-stores/${kvKey}/entries`).set(asAlice).send({ address, value: '{}' }).expect(200);
      return address;
    };
    await h.deps.pg.query("INSERT INTO creators (id, name) VALUES ('matrix', 'Matrix')");
    const campaign = '4242424242';
    await h.deps.pg.query(
      `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type, start_timestamp,
         end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at, params)
       VALUES ($1, 31337, 31337, $2, $3, $4, 1, 1, 0, 1, '0x', 1, $2, $2, 0, now(), '{}')`, [campaign, `0x${'42'.repeat(32)}`, alice.address, `0x${'01'.repeat(20)}`]);
    fixtures = {
      keyId: aliceKey.id, freshKeyId: async () => (await newKey(alice.cookie)).id, list: await freshList(), freshList, kvKey, freshKvKey,
      entry: await freshEntry(), freshEntry, campaign, unique, alice: alice.address,
      grantee: async () => {
        const who = `0x${(++n).toString(16).padStart(40, '0')}`;
        await h.request().post(`/v4/campaigns/${campaign}/access/grant`).set(asAlice).send({ userAddress: who }).expect(200);
        return who;
      },
    };
    headersOf = async (credential): Promise<Record<string, string>> => {
      switch (credential) {
        case 'none': return {};
        case 'malformed': return { Cookie: 'jwt=not.a.jwt', 'x-api-key': 'rk_not-a-key', authorization: 'Bearer nope' };
        case 'expired': return { Cookie: `jwt=${expired}` };
        case 'revoked': return { Cookie: revokedSession.cookie, 'x-api-key': revokedKey.rawKey };
        // Fresh sessions: DELETE /v4/auth/revoke consumes the one it is given.
        case 'otherOwner': return { Cookie: (await login(h, HARDHAT_TEST_KEYS[1])).cookie, 'x-api-key': bobKey.rawKey };
        case 'correct': return { Cookie: (await login(h, HARDHAT_TEST_KEYS[0])).cookie, 'x-api-key': aliceKey.rawKey };
        case 'apiKeyOnly': return { 'x-api-key': aliceKey.rawKey };
        case 'backOffice': return BO;
      }
    };
  });
  after(async () => h?.close());

  it('lists every route of the app exactly once, in MATRIX or PUBLIC_ROUTES', function () {
    const routes = createRoutes({ config: h.config, logger: h.deps.logger, pg: h.apiPg, es: h.deps.es, rpc: h.deps.rpc });
    const declared = new Set(routes.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path).replace(/(.)\/$/, '$1')}`)));
    const listed = [...MATRIX.map((r) => `${r.method.toUpperCase()} ${r.route}`), ...PUBLIC_ROUTES];
    expect(listed.length, 'no route listed twice').to.equal(new Set(listed).size);
    expect([...declared].filter((r) => !listed.includes(r)), 'routes missing from the matrix').to.deep.equal([]);
    expect(listed.filter((r) => !declared.has(r)), 'listed routes that do not exist').to.deep.equal([]);
  });

  for (const { method, route, path, body, expected } of MATRIX) {
    it(`${method.toUpperCase()} ${route}: ${CREDENTIALS.map((c, i) => `${c} ${expected[i]}`).join(', ')}`, async function () {
      const actual: number[] = [];
      for (const credential of CREDENTIALS) {
        let url = await path(fixtures);
        // DELETE …/access/revoke takes its grantee in the body; the fixture names it in the path.
        const grantee = /[?&]to=(0x[0-9a-f]{40})/.exec(url)?.[1];
        if (grantee) url = url.replace(/\?to=.*/, '');
        let request = h.request()[method](url).set(await headersOf(credential));
        const payload = grantee ? { userAddress: grantee } : body?.(fixtures);
        if (payload) request = request.send(payload);
        const res = await request;
        actual.push(res.status);
        if (res.status === 401 || res.status === 403) expect(res.headers['content-type'], `${credential} body`).to.match(/application\/problem\+json/);
      }
      expect(actual).to.deep.equal(expected);
    });
  }
});
