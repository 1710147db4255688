import { expect } from 'chai';
import type { Context } from 'koa';
import { crossSiteRefusal, requestOriginOf, type RequestSource } from '../../../../api/middleware/crossSiteRequests.js';

const TRUSTED = new Set(['https://api.example', 'https://app.example']);
const isTrusted = (origin: string) => TRUSTED.has(origin);
const source = (over: Partial<RequestSource>): RequestSource => ({
  method: 'POST',
  origin: '',
  fetchSite: '',
  hasSessionCookie: true,
  ...over,
});

describe('crossSiteRefusal (M1 of #29)', function () {
  it('refuses a state-changing request with the cookie from an origin that is not trusted, null included', function () {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'PROPFIND'])
      expect(crossSiteRefusal(source({ method, origin: 'http://127.0.0.1:8080' }), isTrusted), method).to.deep.equal({
        origin: 'http://127.0.0.1:8080',
      });
    expect(crossSiteRefusal(source({ origin: 'null' }), isTrusted)).to.deep.equal({ origin: 'null' });
    expect(crossSiteRefusal(source({ origin: 'https://app.example.evil' }), isTrusted)).to.not.equal(null);
  });

  it('checks a sign-in (it sets the cookie) from a page elsewhere with or without a cookie: no login CSRF', function () {
    const login = { createsSession: true, hasSessionCookie: false };
    expect(crossSiteRefusal(source({ ...login, origin: 'http://127.0.0.1:8080' }), isTrusted)).to.deep.equal({
      origin: 'http://127.0.0.1:8080',
    });
    expect(crossSiteRefusal(source({ ...login, fetchSite: 'cross-site' }), isTrusted)).to.deep.equal({
      fetchSite: 'cross-site',
    });
    expect(crossSiteRefusal(source({ ...login, origin: 'https://app.example' }), isTrusted)).to.equal(null);
    expect(crossSiteRefusal(source(login), isTrusted), 'no Origin, no Sec-Fetch-Site (curl)').to.equal(null);
  });

  it('lets trusted origins through, whatever their case', function () {
    expect(crossSiteRefusal(source({ origin: 'https://app.example' }), isTrusted)).to.equal(null);
    expect(crossSiteRefusal(source({ origin: 'HTTPS://API.EXAMPLE' }), isTrusted)).to.equal(null);
  });

  it('without Origin, refuses Sec-Fetch-Site cross-site and same-site, and lets same-origin, none and no header through', function () {
    expect(crossSiteRefusal(source({ fetchSite: 'cross-site' }), isTrusted)).to.deep.equal({ fetchSite: 'cross-site' });
    expect(crossSiteRefusal(source({ fetchSite: 'same-site' }), isTrusted)).to.deep.equal({ fetchSite: 'same-site' });
    for (const fetchSite of ['same-origin', 'none', ''])
      expect(crossSiteRefusal(source({ fetchSite }), isTrusted), fetchSite || 'absent').to.equal(null);
  });

  it('never refuses safe methods or requests without the session cookie (x-api-key, Bearer, back office)', function () {
    for (const method of ['GET', 'HEAD', 'OPTIONS'])
      expect(crossSiteRefusal(source({ method, origin: 'https://evil.example' }), isTrusted)).to.equal(null);
    expect(
      crossSiteRefusal(
        source({ hasSessionCookie: false, origin: 'https://evil.example', fetchSite: 'cross-site' }),
        isTrusted,
      ),
    ).to.equal(null);
  });
});

describe('requestOriginOf', function () {
  const ctxOf = (host: string, headers: Record<string, string> = {}, secure = false) =>
    ({ host, secure, get: (name: string) => headers[name] ?? '' }) as unknown as Context;

  it('is the socket scheme and the Host header, default ports dropped', function () {
    expect(requestOriginOf(ctxOf('api.example:80'), undefined)).to.equal('http://api.example');
    expect(requestOriginOf(ctxOf('API.example:8443', {}, true), undefined)).to.equal('https://api.example:8443');
    expect(requestOriginOf(ctxOf(''), undefined)).to.equal(null);
    expect(requestOriginOf(ctxOf('a b'), undefined)).to.equal(null);
  });

  it('believes X-Forwarded-Proto only behind TRUSTED_PROXIES (its first entry, http or https)', function () {
    const forwarded = { 'x-forwarded-proto': 'https, http' };
    expect(requestOriginOf(ctxOf('api.example', forwarded), undefined)).to.equal('http://api.example');
    expect(requestOriginOf(ctxOf('api.example', forwarded), { hops: 1 })).to.equal('https://api.example');
    expect(requestOriginOf(ctxOf('api.example', { 'x-forwarded-proto': 'gopher' }), { hops: 1 })).to.equal(
      'http://api.example',
    );
  });
});
