import type { ApiDeps } from '../../deps.js';
import type { AuthState } from '../../identity/types.js';
import type { PrivateVisibility } from '../campaigns/query.js';
import { readablePrivateIds } from './repo.js';

/**
 * Which private campaigns a campaign read may include (docs/api-behaviour.md#campaign-privacy): none unless
 * `showPrivate=true`; then every one for the back office, those the caller's wallet (its session,
 * else its API key's owner) may read, and none for an anonymous caller.
 */
export async function privateVisibility(
  deps: ApiDeps,
  state: AuthState,
  showPrivate: boolean | undefined,
): Promise<PrivateVisibility> {
  if (!showPrivate) return 'none';
  if (state.backOffice) return 'all';
  if (!state.auth) return 'none';
  return readablePrivateIds(deps.pg, state.auth.address);
}
