import { expect } from 'chai';
import * as oidc from 'openid-client';
import { classifyOidcError } from '../../../../api/identity/oidcClient.js';
import { exchangeError } from '../../../../api/routes/auth/idpClient.js';

/** openid-client's errors as it throws them for a provider's refusal. */
const refusedToken = () =>
  new oidc.ResponseBodyError('server responded with an error in the response body', {
    cause: { error: 'invalid_grant', error_description: 'code expired' },
    response: new Response('{}', { status: 400 }),
  } as never);
const refusedAuthorization = () =>
  new oidc.AuthorizationResponseError('authorization response from the server is an error', {
    cause: new URLSearchParams({ error: 'access_denied' }),
  } as never);

describe('api/identity/oidcClient: classifyOidcError (the identity provider as a source)', () => {
  it("calls a refusal or an answer that does not check out the caller's sign-in failing (401), never retried", () => {
    const mismatch = Object.assign(new Error('unexpected ID Token "nonce" claim value'), {
      code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
    });
    for (const error of [refusedToken(), refusedAuthorization(), mismatch]) {
      expect(classifyOidcError(error), error.message).to.include({ userError: true, retryable: false });
      expect(exchangeError(error), error.message).to.include({ status: 401, code: 'UNAUTHORIZED' });
    }
  });

  it('calls an unreachable provider retryable, a 502 BAD_GATEWAY', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(classifyOidcError(refused)).to.include({ userError: false, retryable: true, unavailable: true });
    expect(exchangeError(refused)).to.include({ status: 502, code: 'BAD_GATEWAY', retryable: true });
  });
});
