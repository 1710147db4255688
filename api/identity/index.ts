import type { ApiDeps } from '../deps.js';
import { createUsageBuffer, type UsageBuffer } from '../usage/usageBuffer.js';
import { createCredentialLookup, type CredentialLookup } from './credentials.js';

/** Longest a process trusts what it cached about a key or session (revocations by other processes). */
export const CREDENTIAL_CACHE_MS = 2000;

/** The identity services of one app: credential lookups and the API key usage buffer. */
export type Identity = { lookup: CredentialLookup; usage: UsageBuffer };

const byDeps = new WeakMap<ApiDeps, Identity>();

/**
 * The identity services shared by the global middlewares (api/app.ts) and the routers of one app,
 * created once per deps object. No credential cache in tests, so a revocation is visible at once.
 */
export function identityOf(deps: ApiDeps): Identity {
  let identity = byDeps.get(deps);
  if (!identity) {
    identity = {
      lookup: createCredentialLookup(deps.pg, deps.config.env === 'test' ? 0 : CREDENTIAL_CACHE_MS),
      usage: createUsageBuffer({ pool: deps.pg, logger: deps.logger }),
    };
    byDeps.set(deps, identity);
  }
  return identity;
}
