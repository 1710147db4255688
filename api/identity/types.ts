/** Who is calling, as resolved by the `authenticate` middleware (ctx.state.auth). */
export type Auth = {
  kind: 'jwt' | 'apiKey';
  /** Lower-case wallet address of the session, or of the key's owner. */
  address: string;
  tier: number;
  /** Set when a valid `x-api-key` was sent (also alongside a session). */
  keyId?: string;
  /** Set for sessions: the JWT id, used for revocation. */
  jti?: string;
};

/** Verified claims of a session JWT. */
export type SessionClaims = {
  /** A lower-case wallet address, or `idp:<email>` for an identity-provider session without a linked wallet. */
  address: string;
  tier: number;
  provider: 'WALLET' | 'IDP';
  jti: string;
  iat: number;
  exp: number;
  /** An identity-provider identity is linked to the wallet (set by POST /auth/link/wallet; see linkWalletHandler in api/routes/auth/idpHandlers.ts). */
  linkedIdp?: boolean;
  email?: string;
  /** The provider identity of an IDP session (what `POST /auth/link/wallet` links). */
  idp?: { iss: string; sub: string };
};

/** An API key that resolved to an active key row. */
export type ApiKeyIdentity = { id: string; ownerAddress: string; tier: number };

/** Why a credential that was sent did not resolve (kept so guards can explain their 401). */
export type CredentialProblem = 'invalid' | 'expired' | 'revoked' | 'unknown';

/** The typed slice of ctx.state owned by the identity middlewares. */
export type AuthState = {
  auth: Auth | null;
  session: SessionClaims | null;
  apiKey: ApiKeyIdentity | null;
  /**
   * The `authorization` header carried the back-office token (no address, tier 0;
   * docs/api-behaviour.md#credentials-and-guards).
   */
  backOffice: boolean;
  sessionProblem?: CredentialProblem;
  apiKeyProblem?: CredentialProblem;
};
