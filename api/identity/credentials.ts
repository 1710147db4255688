import { createHash } from 'node:crypto';
import type { PgPool } from '../../internal/pg.js';
import type { ApiKeyIdentity } from './types.js';

/** sha-256 (hex) of a raw API key: the only form of the key we store or look up. */
export function hashApiKey(rawKey: string): string {
  return createHash('sha256').update(rawKey, 'utf8').digest('hex');
}

/** A raw key as we issue it: `rk_` + 43 base64url characters (reject anything else without a query). */
const RAW_KEY = /^rk_[A-Za-z0-9_-]{43}$/;

export type CredentialLookup = {
  /** The active key with this raw value, or null (unknown, malformed or revoked). */
  apiKey(rawKey: string): Promise<ApiKeyIdentity | null>;
  /** Whether the session with this jti was revoked. */
  isRevoked(jti: string): Promise<boolean>;
  /** Forgets what this process cached about a jti or key (after it revoked one itself). */
  forget(id: string): void;
};

/**
 * Credential lookups against PostgreSQL with a per-process cache of at most `cacheMs`
 * (0 = none, as in tests): a key or session revoked by any process is refused everywhere once
 * the cache entry expires, and at once by the process that revoked it.
 * Tables: api_keys, revoked_tokens.
 */
export function createCredentialLookup(pool: PgPool, cacheMs: number): CredentialLookup {
  const keys = new Map<string, { value: ApiKeyIdentity | null; until: number }>();
  const revoked = new Map<string, { value: boolean; until: number }>();
  const cached = <T>(map: Map<string, { value: T; until: number }>, id: string, load: () => Promise<T>): Promise<T> => {
    const hit = map.get(id);
    if (hit && hit.until > Date.now()) return Promise.resolve(hit.value);
    return load().then((value) => {
      if (cacheMs > 0) {
        if (map.size > 10_000) map.clear(); // bounded: a flood of random keys cannot grow memory
        map.set(id, { value, until: Date.now() + cacheMs });
      }
      return value;
    });
  };
  return {
    apiKey(rawKey) {
      if (!RAW_KEY.test(rawKey)) return Promise.resolve(null);
      const hash = hashApiKey(rawKey);
      return cached(keys, hash, async () => {
        const { rows } = await pool.query<{ id: string; owner_address: string; tier: number }>(
          'SELECT id, owner_address, tier FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
          [hash],
        );
        const row = rows[0];
        return row ? { id: row.id, ownerAddress: row.owner_address, tier: row.tier } : null;
      });
    },
    isRevoked(jti) {
      return cached(revoked, jti, async () => {
        const { rowCount } = await pool.query('SELECT 1 FROM revoked_tokens WHERE jti = $1', [jti]);
        return Boolean(rowCount);
      });
    },
    forget(id) {
      revoked.delete(id);
      for (const [hash, entry] of keys) if (entry.value?.id === id) keys.delete(hash);
    },
  };
}
