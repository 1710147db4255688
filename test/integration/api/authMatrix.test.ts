import { expect } from 'chai';
import { signSession } from '../../../api/identity/jwt.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { login } from './authFlow.js';

type Credential = 'none' | 'malformed' | 'expired' | 'revoked' | 'otherOwner' | 'correct' | 'apiKeyOnly';
const CREDENTIALS: Credential[] = ['none', 'malformed', 'expired', 'revoked', 'otherOwner', 'correct', 'apiKeyOnly'];

/**
 * Every protected route of the sessions and developer-key families × every kind of credential →
 * the exact status. `{id}` is a key of the "correct" user; "otherOwner" is another user's valid
 * session and key; "revoked" is a revoked session plus a revoked key.
 */
const MATRIX: [method: 'get' | 'post' | 'patch' | 'delete', path: string, expected: number[]][] = [
  //                                          none malformed expired revoked other correct keyOnly
  ['get', '/v4/auth/me', /*                */ [401, 401, 401, 401, 200, 200, 401]],
  ['delete', '/v4/auth/revoke', /*         */ [401, 401, 401, 401, 200, 200, 401]],
  ['post', '/v4/developer/keys/', /*       */ [401, 401, 401, 401, 200, 200, 401]],
  ['get', '/v4/developer/keys/', /*        */ [401, 401, 401, 401, 200, 200, 401]],
  ['get', '/v4/developer/keys/usage', /*   */ [401, 401, 401, 401, 200, 200, 401]],
  ['get', '/v4/developer/keys/{id}/usage', [401, 401, 401, 401, 404, 200, 401]],
  ['patch', '/v4/developer/keys/{id}', /*  */ [401, 401, 401, 401, 404, 200, 401]],
  ['delete', '/v4/developer/keys/{id}', /* */ [401, 401, 401, 401, 404, 200, 401]],
  ['get', '/v4/api-keys/validate', /*      */ [401, 401, 401, 401, 200, 200, 200]],
];

describe('authorization matrix of the session and developer-key routes', function () {
  let h: Harness;
  let headersOf: (credential: Credential) => Promise<Record<string, string | undefined>>;
  let keyId: string;
  /** A key of the "correct" user made for one test (DELETE revokes it, and the key used by other rows must stay active). */
  let freshKeyId: () => Promise<string>;

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
    keyId = aliceKey.id;
    freshKeyId = async () => (await newKey(alice.cookie)).id;
    headersOf = async (credential) => {
      switch (credential) {
        case 'none': return {};
        case 'malformed': return { Cookie: 'jwt=not.a.jwt', 'x-api-key': 'rk_not-a-key' };
        case 'expired': return { Cookie: `jwt=${expired}` };
        case 'revoked': return { Cookie: revokedSession.cookie, 'x-api-key': revokedKey.rawKey };
        // Fresh sessions: DELETE /v4/auth/revoke consumes the one it is given.
        case 'otherOwner': return { Cookie: (await login(h, HARDHAT_TEST_KEYS[1])).cookie, 'x-api-key': bobKey.rawKey };
        case 'correct': return { Cookie: (await login(h, HARDHAT_TEST_KEYS[0])).cookie, 'x-api-key': aliceKey.rawKey };
        case 'apiKeyOnly': return { 'x-api-key': aliceKey.rawKey };
      }
    };
  });
  after(async () => h?.close());

  for (const [method, path, expected] of MATRIX) {
    it(`${method.toUpperCase()} ${path}: ${CREDENTIALS.map((c, i) => `${c} ${expected[i]}`).join(', ')}`, async function () {
      const actual: number[] = [];
      const id = method === 'delete' ? await freshKeyId() : keyId;
      for (const credential of CREDENTIALS) {
        let request = h.request()[method](path.replace('{id}', id));
        for (const [name, value] of Object.entries(await headersOf(credential))) if (value !== undefined) request = request.set(name, value);
        if (method === 'post' || method === 'patch') request = request.send({ description: 'matrix' });
        const res = await request;
        actual.push(res.status);
        if (res.status === 401) expect(res.headers['content-type'], `${credential} body`).to.match(/application\/problem\+json/);
      }
      expect(actual).to.deep.equal(expected);
    });
  }
});
