import type { Queryable } from '../../../internal/pg.js';
import type { EventReader } from '../../../domain/eventLog/eventReader.js';
import type { AuthState } from '../../identity/types.js';

/** How often an open stream checks its caller's credentials again (#43 F4: "within seconds"). */
export const CREDENTIAL_RECHECK_MS = 2000;

/** Who reads a stream or page of the log, for the visibility rule (the credentials the request resolved to). */
export function eventReaderOf(state: AuthState): EventReader {
  if (state.backOffice) return { kind: 'backOffice' };
  if (state.auth) return { kind: 'wallet', address: state.auth.address };
  return { kind: 'anonymous' };
}

/**
 * The check an open stream runs again on its caller's credentials (a session's jti and expiry, an
 * API key): the reason they no longer hold, or null. Undefined for a caller without any (anonymous,
 * or the back office, whose token is configuration). Straight from PostgreSQL, not the
 * per-process credential cache, so a revocation by any process ends the stream within
 * CREDENTIAL_RECHECK_MS. Tables: revoked_tokens, api_keys.
 */
export function streamCredentials(
  db: Queryable,
  state: AuthState,
): { check: () => Promise<string | null>; recheckMs: number; expiresAt?: number } | undefined {
  if (state.backOffice || !state.auth) return undefined;
  const session = state.session;
  const keyId = state.apiKey?.id;
  return {
    recheckMs: CREDENTIAL_RECHECK_MS,
    ...(session ? { expiresAt: session.exp * 1000 } : {}),
    check: async () => {
      if (session) {
        if (session.exp * 1000 <= Date.now()) return 'the session expired';
        const { rowCount } = await db.query('SELECT 1 FROM revoked_tokens WHERE jti = $1', [session.jti]);
        if (rowCount) return 'the session was revoked';
      }
      if (keyId) {
        const { rowCount } = await db.query('SELECT 1 FROM api_keys WHERE id = $1 AND revoked_at IS NULL', [keyId]);
        if (!rowCount) return 'the API key was revoked';
      }
      return null;
    },
  };
}
