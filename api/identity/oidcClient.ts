import * as oidc from 'openid-client';
import type { Config } from '../../internal/config.js';
import type { Classification } from '../../internal/errorSources/classification.js';
import { classifyFetchError } from '../../internal/errorSources/http.js';

type IdpConfig = NonNullable<Config['idp']>;

export type StartedFlow = { authUrl: string; state: string; codeVerifier: string; nonce: string };
export type IdpIdentity = { issuer: string; subject: string; email: string; emailVerified: boolean | undefined };

/** The identity provider adapter: authorization URLs with PKCE, state and nonce; code exchange. */
export type OidcClient = {
  start(): Promise<StartedFlow>;
  /** Exchanges the callback's code (checks state, nonce and the PKCE verifier) and returns the ID token's identity. */
  finish(params: { callbackQuery: string; state: string; codeVerifier: string; nonce: string }): Promise<IdpIdentity>;
};

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/**
 * An OpenID Connect client (openid-client) for the configured provider. Discovery runs on first
 * use and is kept per process (a failure is retried on the next call). Plain http is allowed only
 * for a loopback issuer (local providers in development and tests).
 */
export function createOidcClient(idp: IdpConfig): OidcClient {
  const issuer = new URL(idp.issuerUrl);
  let discovered: Promise<oidc.Configuration> | null = null;
  const configuration = () => {
    discovered ??= oidc
      .discovery(issuer, idp.clientId, idp.clientSecret, idp.clientSecret ? undefined : oidc.None(), {
        ...(issuer.protocol === 'http:' && isLoopback(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
        timeout: 10,
      })
      .catch((error: unknown) => {
        discovered = null;
        throw error;
      });
    return discovered;
  };
  return {
    async start() {
      const config = await configuration();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: idp.redirectUri,
        scope: 'openid email',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { authUrl: url.href, state, codeVerifier, nonce };
    },
    async finish({ callbackQuery, state, codeVerifier, nonce }) {
      const config = await configuration();
      // The callback URL as registered (never the request's Host) plus the query the provider sent.
      const current = new URL(idp.redirectUri);
      current.search = callbackQuery;
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      // Providers may put scope claims in the ID token or only behind the userinfo endpoint (OIDC Core §5.4).
      const profile: Record<string, unknown> =
        typeof claims['email'] === 'string'
          ? claims
          : await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      const email = typeof profile['email'] === 'string' ? profile['email'] : '';
      const verified = profile['email_verified'];
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email,
        emailVerified: typeof verified === 'boolean' ? verified : undefined,
      };
    },
  };
}

/**
 * The identity provider's failures, classified where they enter (internal/errorSources/ for the
 * shared sources): a refusal of the provider or an answer that does not check out (bad code, PKCE,
 * state, nonce: openid-client's OAUTH_* errors) is the caller's sign-in failing (`userError`, never
 * retried as is); anything else means the provider could not be used (`unavailable`, retryable).
 */
export function classifyOidcError(error: unknown): Classification {
  const refused =
    error instanceof oidc.ResponseBodyError ||
    error instanceof oidc.AuthorizationResponseError ||
    Boolean((error as { code?: string } | null)?.code?.startsWith?.('OAUTH_'));
  if (refused) return { source: 'http', retryable: false, userError: true, unavailable: false, reason: 'refused' };
  return (
    classifyFetchError(error) ?? {
      source: 'http',
      retryable: true,
      userError: false,
      unavailable: true,
      reason: 'unusable answer',
    }
  );
}
