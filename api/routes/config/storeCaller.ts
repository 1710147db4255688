import type { AuthState } from '../../identity/types.js';

/**
 * Who stores a configuration, for POST /v4/config/store's own rate limit and quota (issue #29 L2):
 * the API key (`key:<id>`), else the session's account (`user:<address>`), else the client address
 * (`ip:<client key>`: an IPv6 client by its /64, api/middleware/clientAddress.ts clientKey). The back
 * office is not limited: null.
 */
export function configStoreCallerOf(state: AuthState, clientKey: string): string | null {
  if (state.backOffice) return null;
  if (state.apiKey) return `key:${state.apiKey.id}`;
  if (state.auth) return `user:${state.auth.address}`;
  return `ip:${clientKey}`;
}
