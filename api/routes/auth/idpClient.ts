import * as oidc from 'openid-client';
import type { ApiDeps } from '../../deps.js';
import { AppError } from '../../errors.js';
import { classifyOidcError, createOidcClient, type OidcClient } from '../../identity/oidcClient.js';
import { PROBLEMS } from '../../problems/registry.js';

/**
 * The OpenID Connect client, created on first use; without IDP_* configuration every call is a 404
 * (IDP_DISABLED), so the identity-provider routes answer 404.
 */
export function lazyOidcClient(deps: ApiDeps): () => OidcClient {
  let client: OidcClient | null = null;
  return (): OidcClient => {
    if (!deps.config.idp)
      throw new AppError(
        PROBLEMS.IDP_DISABLED,
        'Identity-provider sign-in is not enabled on this server (IDP_ISSUER_URL is unset)',
      );
    return (client ??= createOidcClient(deps.config.idp));
  };
}

/** Refusal of the provider or of the exchange (bad code, PKCE, nonce) → 401; provider unreachable → 502. */
export function exchangeError(error: unknown): AppError {
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError) {
    return new AppError(
      PROBLEMS.UNAUTHORIZED,
      `The identity provider refused the sign-in: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`,
      { cause: error },
    );
  }
  if (classifyOidcError(error).userError)
    return new AppError(
      PROBLEMS.UNAUTHORIZED,
      `The identity provider's answer did not check out: ${(error as Error).message}`,
      { cause: error },
    );
  return new AppError(PROBLEMS.BAD_GATEWAY, 'The identity provider is unreachable, retry shortly', { cause: error });
}
