import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { signSession } from '../../../api/identity/jwt.js';
import { buildSignInMessage } from '../../../api/routes/auth/siwe.js';
import { loadConfig } from '../../../internal/config.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import supertest from 'supertest';
import { sharedSubstring } from '../../helpers/sharedSubstring.js';
import { jwtCookieOf, login, signedLogin } from './authFlow.js';

describe('wallet sessions: /v4/auth', function () {
  let h: Harness;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
  });
  after(async () => h?.close());

  it('issues an EIP-4361 message with a checksummed address, chain 1 and a 5-minute single-use nonce', async function () {
    const address = privateKeyToAccount(HARDHAT_TEST_KEYS[0]).address;
    const res = await h.request().get(`/v4/auth/nonce/${address.toLowerCase()}`).expect(200);
    expect(res.body).to.have.keys('message', 'nonce');
    const fields = parseSiweMessage(res.body.message);
    expect(fields.address).to.equal(getAddress(address));
    expect(res.body.message).to.include(getAddress(address));
    expect(fields).to.include({ chainId: 1, nonce: res.body.nonce, version: '1' });
    expect(fields.domain).to.match(/^127\.0\.0\.1(:\d+)?$/);
    const ttl = fields.expirationTime!.getTime() - fields.issuedAt!.getTime();
    expect(ttl).to.equal(5 * 60 * 1000);
    const { rows } = await h.deps.pg.query('SELECT address, used_at FROM auth_nonces WHERE nonce = $1', [
      res.body.nonce,
    ]);
    expect(rows).to.deep.equal([{ address: address.toLowerCase(), used_at: null }]);
  });

  it('names the configured domain, URI and chain in the message whatever the Host header says (PUBLIC_BASE_URL), and refuses a message for another domain', async function () {
    const account = privateKeyToAccount(generatePrivateKey());
    const res = await h.request().get(`/v4/auth/nonce/${account.address}`).set('Host', 'evil.example').expect(200);
    const fields = parseSiweMessage(res.body.message);
    expect(h.config.signIn).to.deep.equal({ domain: '127.0.0.1:3000', uri: 'http://127.0.0.1:3000', chainId: 1 });
    expect(fields).to.include({ domain: '127.0.0.1:3000', uri: 'http://127.0.0.1:3000', chainId: 1 });
    expect(res.body.message).to.not.include('evil.example');
    // A message for another site, stored with a real nonce (as main issued them from the Host header), signs in nobody.
    const evil = buildSignInMessage({ address: account.address, domain: 'evil.example', uri: 'http://evil.example' });
    await h.deps.pg.query('INSERT INTO auth_nonces (nonce, address, message, expires_at) VALUES ($1, $2, $3, $4)', [
      evil.nonce,
      account.address.toLowerCase(),
      evil.message,
      evil.expiresAt,
    ]);
    const signature = await account.signMessage({ message: evil.message });
    const refused = await h
      .request()
      .post('/v4/auth/login')
      .send({ address: account.address, message: evil.message, signature })
      .expect(400);
    expect(refused.body.errors).to.deep.equal([
      { field: 'message', message: 'was issued for another domain than 127.0.0.1:3000' },
    ]);
    expect(refused.headers['set-cookie'] ?? []).to.deep.equal([]);

    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_BASE_URL: 'https://rewards.example/',
      SIGN_IN_CHAIN_ID: '10',
      CHAINS: JSON.stringify(h.config.chains),
    });
    const deployed = supertest(
      h
        .createApp({
          config: { ...h.config, signIn: config.signIn },
        })
        .callback(),
    );
    const issued = await deployed.get(`/v4/auth/nonce/${account.address}`).set('Host', '127.0.0.1').expect(200);
    expect(parseSiweMessage(issued.body.message)).to.include({
      domain: 'rewards.example',
      uri: 'https://rewards.example',
      chainId: 10,
    });
    const ok = await deployed
      .post('/v4/auth/login')
      .send({
        address: account.address,
        message: issued.body.message,
        signature: await account.signMessage({ message: issued.body.message }),
      })
      .expect(200);
    expect(jwtCookieOf(ok)).to.be.a('string');
    // The quick start's app refuses the deployed site's message (another domain), even with a fresh nonce.
    const other = await deployed.get(`/v4/auth/nonce/${account.address}`).expect(200);
    await h
      .request()
      .post('/v4/auth/login')
      .send({
        address: account.address,
        message: other.body.message,
        signature: await account.signMessage({ message: other.body.message }),
      })
      .expect(400);
  });

  it('issues unpredictable nonces: 128 random bits each, no nonce a shift of another (M4 of #29)', async function () {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const nonces: string[] = [];
    for (let i = 0; i < 40; i++)
      nonces.push((await h.request().get(`/v4/auth/nonce/${address}`).expect(200)).body.nonce as string);
    // viem's generateSiweNonce answered each nonce as the previous one shifted by a character.
    expect(sharedSubstring(nonces, 12)).to.equal(null);
    for (const nonce of nonces) {
      // EIP-4361's nonce grammar (alphanumeric, 8 or more), and 32 hex digits: 128 bits.
      expect(nonce).to.match(/^[a-zA-Z0-9]{8,}$/);
      expect(nonce).to.match(/^[0-9a-f]{32}$/);
    }
    expect(nonces[0]!.length * Math.log2(16)).to.be.at.least(96);
  });

  it('refuses a nonce request for something that is not a 0x address, naming address', async function () {
    const res = await h.request().get('/v4/auth/nonce/0x1234').expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).to.deep.equal(['address']);
  });

  it('logs in with a real signature: httpOnly SameSite=Lax cookie, HS256 JWT with jti, 24 h expiry, no token in test env', async function () {
    const body = await signedLogin(h, HARDHAT_TEST_KEYS[0]);
    const res = await h
      .request()
      .post('/v4/auth/login')
      .send({ address: body.address, message: body.message, signature: body.signature })
      .expect(200);
    expect(res.body).to.deep.equal({ success: true });
    const setCookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('jwt='))!;
    expect(setCookie)
      .to.match(/httponly/i)
      .and.match(/samesite=lax/i)
      .and.not.match(/secure/i);
    const decoded = jwt.decode(jwtCookieOf(res)!, { complete: true })!;
    expect(decoded.header.alg).to.equal('HS256');
    const payload = decoded.payload as Record<string, unknown>;
    expect(payload).to.include({ address: body.address.toLowerCase(), tier: 0, provider: 'WALLET' });
    expect(payload['jti']).to.be.a('string');
    expect((payload['exp'] as number) - (payload['iat'] as number)).to.equal(86_400);
  });

  it('refuses a replayed message, and lets one of two parallel uses of a nonce log in', async function () {
    const body = await signedLogin(h, HARDHAT_TEST_KEYS[1]);
    const send = () =>
      h
        .request()
        .post('/v4/auth/login')
        .send({ address: body.address, message: body.message, signature: body.signature });
    const statuses = (await Promise.all([send(), send(), send()])).map((r) => r.status).sort();
    expect(statuses).to.deep.equal([200, 401, 401]);
    const replay = await send().expect(401);
    expect(replay.headers['set-cookie'] ?? []).to.deep.equal([]);
  });

  it('refuses an expired nonce, a wrong signer, another address and extra properties', async function () {
    const body = await signedLogin(h, HARDHAT_TEST_KEYS[2]);
    await h.deps.pg.query("UPDATE auth_nonces SET expires_at = now() - interval '1 second' WHERE nonce = $1", [
      body.nonce,
    ]);
    await h
      .request()
      .post('/v4/auth/login')
      .send({ address: body.address, message: body.message, signature: body.signature })
      .expect(401);

    const fresh = await signedLogin(h, HARDHAT_TEST_KEYS[2]);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = await stranger.signMessage({ message: fresh.message });
    const wrongSigner = await h
      .request()
      .post('/v4/auth/login')
      .send({ address: fresh.address, message: fresh.message, signature: forged })
      .expect(401);
    expect(wrongSigner.body.errors[0].field).to.equal('signature');
    const otherAddress = await h
      .request()
      .post('/v4/auth/login')
      .send({ address: stranger.address, message: fresh.message, signature: forged })
      .expect(400);
    expect(otherAddress.body.errors[0].field).to.equal('message');
    const extra = await h
      .request()
      .post('/v4/auth/login')
      .send({ ...fresh, admin: true })
      .expect(400);
    expect(extra.body.errors.map((e: { field: string }) => e.field).sort()).to.deep.equal(['admin', 'nonce']);
    // The failed attempts did not burn the nonce.
    await h
      .request()
      .post('/v4/auth/login')
      .send({ address: fresh.address, message: fresh.message, signature: fresh.signature })
      .expect(200);
  });

  it('adds the token to the login body in development only', async function () {
    const dev = supertest(
      h
        .createApp({
          config: { ...h.config, env: 'development' },
        })
        .callback(),
    );
    const account = privateKeyToAccount(HARDHAT_TEST_KEYS[0]);
    const nonce = await dev.get(`/v4/auth/nonce/${account.address}`).expect(200);
    const signature = await account.signMessage({ message: nonce.body.message });
    const res = await dev
      .post('/v4/auth/login')
      .send({ address: account.address, message: nonce.body.message, signature })
      .expect(200);
    expect(res.body).to.have.keys('success', 'token');
    expect(res.body.token).to.equal(jwtCookieOf(res));
    await dev.get('/v4/auth/me').set('Authorization', `Bearer ${res.body.token}`).expect(200);
  });

  it("accepts a chainId beside the message only when it is the message's Chain ID (400 naming chainId otherwise)", async function () {
    const body = await signedLogin(h, HARDHAT_TEST_KEYS[0]);
    const send = (chainId: number) =>
      h
        .request()
        .post('/v4/auth/login')
        .send({ address: body.address, message: body.message, signature: body.signature, chainId });
    const refused = await send(31337).expect(400);
    expect(refused.body.errors).to.deep.equal([
      { field: 'chainId', message: "must be the message's Chain ID 1, the chain the signature is checked on" },
    ]);
    // An EOA signature holds on every chain, so chain 1 needs no RPC here.
    await send(1).expect(200);
  });

  it('GET /me returns exactly the session identity record (cookie or Bearer)', async function () {
    const session = await login(h, HARDHAT_TEST_KEYS[0]);
    await h.deps.pg.query("UPDATE users SET tags = '{creator}', tier = 1 WHERE address = $1", [session.address]);
    const res = await h.request().get('/v4/auth/me').set('Cookie', session.cookie).expect(200);
    expect(res.body).to.have.all.keys(
      'address',
      'authenticatedAt',
      'expiresAt',
      'tags',
      'tier',
      'provider',
      'linkedIdp',
    );
    expect(res.body).to.include({ address: session.address, tier: 1, provider: 'WALLET', linkedIdp: false });
    expect(res.body.tags).to.deep.equal(['creator']);
    expect(res.body.expiresAt - res.body.authenticatedAt).to.equal(86_400);
    expect(res.headers['cache-control']).to.equal('private, no-store');
    const bearer = await h.request().get('/v4/auth/me').set('Authorization', `Bearer ${session.token}`).expect(200);
    expect(bearer.body.address).to.equal(session.address);
  });

  it('refuses a token signed with another algorithm or secret, and an expired one', async function () {
    const { claims } = signSession({ secret: h.config.jwtSecret, address: `0x${'1'.repeat(40)}`, tier: 2 });
    const none = jwt.sign(claims, '', { algorithm: 'none', noTimestamp: true } as jwt.SignOptions);
    const hs512 = jwt.sign(claims, h.config.jwtSecret, { algorithm: 'HS512', noTimestamp: true });
    const otherSecret = signSession({ secret: 'x'.repeat(32), address: claims.address, tier: 2 }).token;
    const expired = signSession({
      secret: h.config.jwtSecret,
      address: claims.address,
      tier: 2,
      nowSeconds: Math.floor(Date.now() / 1000) - 90_000,
    }).token;
    for (const token of [none, hs512, otherSecret, expired]) {
      const res = await h.request().get('/v4/auth/me').set('Cookie', `jwt=${token}`).expect(401);
      expect(res.headers['content-type']).to.match(/application\/problem\+json/);
    }
  });

  it('revokes the session: cookie cleared, token refused afterwards, also by a second app instance', async function () {
    const session = await login(h, HARDHAT_TEST_KEYS[1]);
    const second = supertest(h.createApp().callback());
    await second.get('/v4/auth/me').set('Cookie', session.cookie).expect(200);
    const res = await h.request().delete('/v4/auth/revoke').set('Cookie', session.cookie).expect(200);
    expect(jwtCookieOf(res)).to.equal('');
    await h.request().get('/v4/auth/me').set('Cookie', session.cookie).expect(401);
    await second.get('/v4/auth/me').set('Authorization', `Bearer ${session.token}`).expect(401);
    await second.delete('/v4/auth/revoke').set('Cookie', session.cookie).expect(401);
    const { rows } = await h.deps.pg.query('SELECT expires_at FROM revoked_tokens');
    expect(rows.length).to.be.greaterThan(0);
  });

  it('DELETE /revoke without a session is 401', async function () {
    await h.request().delete('/v4/auth/revoke').expect(401);
  });
});
