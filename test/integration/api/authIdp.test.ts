import { expect } from 'chai';
import { generatePrivateKey } from 'viem/accounts';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { startTestOidcProvider, type TestOidcProvider } from '../../helpers/oidcProvider.js';
import { cookieOf, jwtCookieOf, login, signedLogin } from './authFlow.js';

const REDIRECT_URI = 'http://127.0.0.1:39999/v4/auth/idp/callback';
/** Wallets of their own for the refusal cases (the devnet's three funded keys are taken by the others). */
const EXTRA_KEYS = [generatePrivateKey(), generatePrivateKey()];
const ME_KEYS = ['address', 'authenticatedAt', 'email', 'expiresAt', 'linkedIdp', 'provider', 'tags', 'tier'];

describe('identity-provider sign-in (OpenID Connect + PKCE) against a real local provider', function () {
  let h: Harness;
  let idp: TestOidcProvider;

  before(async function () {
    idp = await startTestOidcProvider(REDIRECT_URI);
    h = await createHarness({
      chainIds: [31337],
      env: {
        IDP_ISSUER_URL: idp.issuer,
        IDP_CLIENT_ID: idp.clientId,
        IDP_CLIENT_SECRET: idp.clientSecret,
        IDP_REDIRECT_URI: REDIRECT_URI,
      },
    });
  });
  after(async () => {
    await h?.close();
    await idp?.stop();
  });

  /** Starts a flow: the provider URL, and the `idp_state` cookie binding the flow to this "browser". */
  const start = async (mode: 'login' | 'link', cookie?: string) => {
    const req = h.request().get(`/v4/auth/idp/start?mode=${mode}`);
    const res = await (cookie ? req.set('Cookie', cookie) : req).expect(200);
    return { url: new URL(res.body.authUrl as string), cookie: `idp_state=${cookieOf(res, 'idp_state')}` };
  };
  /** The callback as the browser that started the flow sends it (with its `idp_state` cookie). */
  const callbackOf = (started: { cookie: string }, search: string) =>
    h.request().get(`/v4/auth/idp/callback${search}`).set('Cookie', started.cookie);
  /** Runs a whole sign-in at the provider and the callback; returns the callback response. */
  const signIn = async (loginName: string, mode: 'login' | 'link' = 'login', cookie?: string) => {
    const started = await start(mode, cookie);
    return callbackOf(started, (await idp.signIn(started.url.href, loginName)).search);
  };
  const me = async (cookie: string) => (await h.request().get('/v4/auth/me').set('Cookie', cookie).expect(200)).body;

  it('answers an authorization URL with PKCE (S256), state and nonce for our client', async function () {
    const { url } = await start('login');
    expect(url.origin).to.equal(idp.issuer);
    expect(url.searchParams.get('client_id')).to.equal(idp.clientId);
    expect(url.searchParams.get('redirect_uri')).to.equal(REDIRECT_URI);
    expect(url.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(url.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).to.have.length.greaterThan(20);
    expect(url.searchParams.get('nonce')).to.have.length.greaterThan(20);
    expect(url.searchParams.get('scope')).to.equal('openid email');
    const bad = await h.request().get('/v4/auth/idp/start?mode=nope').expect(400);
    expect(bad.body.errors[0].field).to.equal('mode');
    await h.request().get('/v4/auth/idp/start').expect(400);
  });

  it('signs in as idp:<email> with provider IDP, and /auth/me is exactly the Session identity record', async function () {
    const res = await signIn('alice');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ success: true });
    const cookie = `jwt=${jwtCookieOf(res)}`;
    const body = await me(cookie);
    expect(Object.keys(body).sort()).to.deep.equal(ME_KEYS);
    expect(body).to.include({
      address: 'idp:alice@example.com',
      provider: 'IDP',
      linkedIdp: false,
      email: 'alice@example.com',
      tier: 0,
    });
  });

  it('consumes the state once and refuses provider errors, unknown states and missing codes', async function () {
    const started = await start('login');
    const callback = await idp.signIn(started.url.href, 'alice');
    await callbackOf(started, callback.search).expect(200);
    const replay = await callbackOf(started, callback.search).expect(400);
    expect(replay.body.errors[0].field).to.equal('state');
    await h.request().get('/v4/auth/idp/callback?error=access_denied&error_description=nope&state=x').expect(401);
    const missing = await h.request().get('/v4/auth/idp/callback?state=abc').expect(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['code']);
    await h
      .request()
      .get('/v4/auth/idp/callback?code=abc&state=never-issued')
      .set('Cookie', 'idp_state=never-issued')
      .expect(400);
  });

  it('binds the code to the PKCE verifier of its own flow: a code replayed under another flow is refused', async function () {
    const first = await idp.signIn((await start('login')).url.href, 'mallory');
    const other = await start('login');
    const swapped = new URLSearchParams(first.search);
    swapped.set('state', other.url.searchParams.get('state')!);
    const res = await callbackOf(other, `?${swapped}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(401);
    expect(jwtCookieOf(res)).to.equal(undefined);
  });

  it('refuses an identity whose email the provider has not verified, or does not say is verified (L5 of #29)', async function () {
    const res = await signIn('unverified-eve');
    expect(res.status).to.equal(403);
    expect(res.body.detail).to.match(/not verified/);
    const unstated = await signIn('unstated-frank');
    expect(unstated.status, JSON.stringify(unstated.body)).to.equal(403);
    expect(unstated.body.detail).to.match(/email_verified claim missing/);
    expect(jwtCookieOf(unstated)).to.equal(undefined);
  });

  it('binds a flow to the browser that started it: the idp_state cookie (HttpOnly, SameSite=Lax, 10 minutes) must come back with the callback (L5 of #29)', async function () {
    const before = Date.now();
    const res = await h.request().get('/v4/auth/idp/start?mode=login').expect(200);
    const set = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('idp_state='))!;
    expect(set)
      .to.match(/httponly/i)
      .and.match(/samesite=lax/i)
      .and.match(/path=\//i);
    const expires = Date.parse(/expires=([^;]+)/i.exec(set)![1]!);
    expect(expires - before).to.be.within(599_000, 601_000);
    expect(cookieOf(res, 'idp_state')).to.equal(new URL(res.body.authUrl).searchParams.get('state'));

    // An attacker completes their own flow and sends the callback URL to a victim (login CSRF).
    const attacker = await start('login');
    const forged = await idp.signIn(attacker.url.href, 'mallory');
    const victim = await start('login');
    for (const cookie of [undefined, victim.cookie]) {
      const req = h.request().get(`/v4/auth/idp/callback${forged.search}`);
      const refused = await (cookie ? req.set('Cookie', cookie) : req);
      expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
      expect(refused.body.errors).to.deep.equal([{ field: 'state', message: 'does not match the idp_state cookie' }]);
      expect(jwtCookieOf(refused)).to.equal(undefined);
      // The victim's own sign-in in progress keeps its cookie.
      expect(cookieOf(refused, 'idp_state')).to.equal(undefined);
    }
    // Refusals did not consume the flow: the browser that started it finishes it, and its cookie is cleared.
    const done = await callbackOf(attacker, forged.search).expect(200);
    expect(jwtCookieOf(done)).to.be.a('string');
    expect(cookieOf(done, 'idp_state')).to.equal('');
  });

  it('merges a wallet into an IdP session (POST /auth/link/wallet): one wallet identity with linkedIdp true', async function () {
    const idpCookie = `jwt=${jwtCookieOf(await signIn('bob'))}`;
    const signed = await signedLogin(h, HARDHAT_TEST_KEYS[1]);
    const res = await h
      .request()
      .post('/v4/auth/link/wallet')
      .set('Cookie', idpCookie)
      .send({ address: signed.address, message: signed.message, signature: signed.signature })
      .expect(200);
    const walletCookie = `jwt=${jwtCookieOf(res)}`;
    expect(await me(walletCookie)).to.include({
      address: signed.address.toLowerCase(),
      provider: 'WALLET',
      linkedIdp: true,
      email: 'bob@example.com',
    });
    // The IdP session collapsed into the wallet's: it is revoked.
    await h.request().get('/v4/auth/me').set('Cookie', idpCookie).expect(401);
    // Later sign-ins by either side land on the same wallet identity.
    expect(await me(`jwt=${jwtCookieOf(await signIn('bob'))}`)).to.include({
      address: signed.address.toLowerCase(),
      provider: 'IDP',
      linkedIdp: true,
    });
    expect(await me((await login(h, HARDHAT_TEST_KEYS[1])).cookie)).to.include({
      address: signed.address.toLowerCase(),
      linkedIdp: true,
      email: 'bob@example.com',
    });
  });

  it('refuses link/wallet without a session (401), with a wallet session (403), for a used nonce (401) and for a wallet linked elsewhere (409)', async function () {
    const signed = await signedLogin(h, EXTRA_KEYS[0]!);
    const body = { address: signed.address, message: signed.message, signature: signed.signature };
    await h.request().post('/v4/auth/link/wallet').send(body).expect(401);
    await h
      .request()
      .post('/v4/auth/link/wallet')
      .set('Cookie', (await login(h, EXTRA_KEYS[1]!)).cookie)
      .send(body)
      .expect(403);
    const daveCookie = `jwt=${jwtCookieOf(await signIn('dave'))}`;
    await h
      .request()
      .post('/v4/auth/link/wallet')
      .set('Cookie', daveCookie)
      .send({ ...body, signature: `0x${'11'.repeat(65)}` })
      .expect(401);
    // HARDHAT_TEST_KEYS[1] already belongs to bob's identity.
    const taken = await signedLogin(h, HARDHAT_TEST_KEYS[1]);
    await h
      .request()
      .post('/v4/auth/link/wallet')
      .set('Cookie', daveCookie)
      .send({ address: taken.address, message: taken.message, signature: taken.signature })
      .expect(409);
  });

  it('links an identity to the current wallet session with mode=link', async function () {
    await h.request().get('/v4/auth/idp/start?mode=link').expect(401);
    const wallet = await login(h, HARDHAT_TEST_KEYS[2]);
    const res = await signIn('carol', 'link', wallet.cookie);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(await me(`jwt=${jwtCookieOf(res)}`)).to.include({
      address: wallet.address,
      provider: 'WALLET',
      linkedIdp: true,
      email: 'carol@example.com',
    });
  });
});

describe('identity-provider routes without IDP_* configuration', function () {
  let h: Harness;
  before(async function () {
    h = await createHarness({ chainIds: [31337] });
  });
  after(async () => h?.close());

  it('answer 404 problem bodies that say the feature is off', async function () {
    const res = await h.request().get('/v4/auth/idp/start?mode=login').expect(404);
    expect(res.body.detail).to.match(/not enabled/);
    await h.request().get('/v4/auth/idp/callback?code=a&state=b').expect(404);
  });
});
