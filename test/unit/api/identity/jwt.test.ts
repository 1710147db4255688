import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { SESSION_TTL_SECONDS, signSession, verifySession } from '../../../../api/identity/jwt.js';

const SECRET = 's'.repeat(32);

describe('api/identity/jwt', function () {
  it('signs HS256 sessions with jti, iat and a 24 h exp that verify', function () {
    const { token, claims } = signSession({
      secret: SECRET,
      address: '0xABCDEF0000000000000000000000000000000001',
      tier: 1,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    expect(jwt.decode(token, { complete: true })!.header.alg).to.equal('HS256');
    expect(claims.address).to.equal('0xabcdef0000000000000000000000000000000001');
    expect(claims.exp - claims.iat).to.equal(SESSION_TTL_SECONDS);
    expect(verifySession(token, SECRET)).to.deep.equal({ ok: true, claims });
  });

  it('refuses other algorithms, secrets, foreign claims and expired tokens', function () {
    const { claims } = signSession({ secret: SECRET, address: `0x${'1'.repeat(40)}`, tier: 0 });
    expect(verifySession(jwt.sign(claims, SECRET, { algorithm: 'HS384' }), SECRET)).to.deep.equal({
      ok: false,
      problem: 'invalid',
    });
    expect(verifySession(jwt.sign(claims, 'x'.repeat(32), { algorithm: 'HS256' }), SECRET)).to.deep.equal({
      ok: false,
      problem: 'invalid',
    });
    expect(verifySession(jwt.sign({ sub: 'someone' }, SECRET, { algorithm: 'HS256' }), SECRET)).to.deep.equal({
      ok: false,
      problem: 'invalid',
    });
    const old = signSession({ secret: SECRET, address: claims.address, tier: 0, nowSeconds: 1_000_000 }).token;
    expect(verifySession(old, SECRET)).to.deep.equal({ ok: false, problem: 'expired' });
    expect(verifySession('garbage', SECRET)).to.deep.equal({ ok: false, problem: 'invalid' });
  });
});
