import { randomBytes, randomUUID } from 'node:crypto';
import type { PgPool } from '../../../internal/pg.js';
import { AppError } from '../../errors.js';
import { hashApiKey } from '../../identity/credentials.js';
import { withTransaction as inWriteTransaction } from '../../../internal/pg.js';
import { MAX_ACTIVE_KEYS } from './schema.js';
import { PROBLEMS } from '../../problems/registry.js';

/** An api_keys row in TS names (never the hash). */
export type ApiKeyRow = {
  id: string;
  prefix: string;
  description: string;
  tier: number;
  createdAt: Date;
  revokedAt: Date | null;
};

const COLUMNS = 'id, prefix, description, tier, created_at AS "createdAt", revoked_at AS "revokedAt"';

/** Seconds over which keys created from one client address are counted (API_KEYS_PER_ADDRESS_PER_DAY). */
export const KEYS_FROM_ADDRESS_WINDOW_S = 86_400;

/** 429: the client address created its most keys in the last day; `retryAfterSeconds` until the oldest of them ages out. */
export class KeyCreationLimitError extends AppError {
  override name = 'KeyCreationLimitError';
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      PROBLEMS.RATE_LIMITED,
      `At most ${limit} API keys are created from one client address in 24 hours, whatever the wallets; retry in ${retryAfterSeconds} s`,
      { extensions: { limit, windowSeconds: KEYS_FROM_ADDRESS_WINDOW_S, scope: 'address' } },
    );
  }
}

/** Where a key is created from: the client address key, and how many keys it may create in a day. */
export type KeyOrigin = { from: string; perDay: number };

/**
 * Creates a key for `owner` with the owner's tier: a random `rk_…` raw key returned once, stored only
 * as its sha-256 and an `rk_` + 8-character prefix. 409 past MAX_ACTIVE_KEYS active keys; 429
 * (KeyCreationLimitError) when `origin.from` created `origin.perDay` keys in the last 24 hours, for
 * any owners (#43 F5: wallets are free, so a per-owner cap alone bounds nothing).
 * Tables: users, api_keys.
 */
export async function createKey(
  pool: PgPool,
  owner: string,
  description: string,
  origin: KeyOrigin,
): Promise<ApiKeyRow & { rawKey: string }> {
  const rawKey = `rk_${randomBytes(32).toString('base64url')}`;
  return inWriteTransaction(pool, async (client) => {
    // Serializes concurrent creations from one address, then by one owner, so both caps hold (always
    // in this order: two creations never wait for each other's second lock).
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`api_keys:from:${origin.from}`]);
    const {
      rows: [recent],
    } = await client.query<{ n: number; retryAfter: number | null }>(
      `SELECT count(*)::int AS n,
              ceil(extract(epoch FROM min(created_at) + make_interval(secs => $2) - now()))::int AS "retryAfter"
       FROM api_keys WHERE created_from = $1 AND created_at > now() - make_interval(secs => $2)`,
      [origin.from, KEYS_FROM_ADDRESS_WINDOW_S],
    );
    if (recent!.n >= origin.perDay)
      throw new KeyCreationLimitError(origin.perDay, Math.max(1, recent!.retryAfter ?? 1));
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`api_keys:${owner}`]);
    const {
      rows: [active],
    } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE owner_address = $1 AND revoked_at IS NULL',
      [owner],
    );
    if (active!.n >= MAX_ACTIVE_KEYS)
      throw new AppError(PROBLEMS.CONFLICT, `At most ${MAX_ACTIVE_KEYS} active API keys per user: revoke one first`);
    const { rows } = await client.query<ApiKeyRow>(
      `INSERT INTO api_keys (id, owner_address, prefix, key_hash, description, tier, created_from)
       VALUES ($1, $2, $3, $4, $5, COALESCE((SELECT tier FROM users WHERE address = $2), 0), $6) RETURNING ${COLUMNS}`,
      [randomUUID(), owner, rawKey.slice(0, 11), hashApiKey(rawKey), description, origin.from],
    );
    return { ...rows[0]!, rawKey };
  });
}

/** The owner's keys, oldest first. Tables: api_keys. */
export async function listKeys(pool: PgPool, owner: string): Promise<ApiKeyRow[]> {
  const { rows } = await pool.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE owner_address = $1 ORDER BY created_at, id`,
    [owner],
  );
  return rows;
}

/** Updates the description of one of the owner's keys; null when the owner has no such key. Tables: api_keys. */
export async function updateKey(
  pool: PgPool,
  owner: string,
  id: string,
  description: string | undefined,
): Promise<ApiKeyRow | null> {
  return inWriteTransaction(pool, async (client) => {
    const { rows } = await client.query<ApiKeyRow>(
      `UPDATE api_keys SET description = COALESCE($3, description) WHERE id = $1 AND owner_address = $2 RETURNING ${COLUMNS}`,
      [id, owner, description ?? null],
    );
    return rows[0] ?? null;
  });
}

/** Revokes one of the owner's keys (idempotent: the first revocation time stays); null when not the owner's. Tables: api_keys. */
export async function revokeKey(pool: PgPool, owner: string, id: string): Promise<ApiKeyRow | null> {
  return inWriteTransaction(pool, async (client) => {
    const { rows } = await client.query<ApiKeyRow>(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND owner_address = $2 RETURNING ${COLUMNS}`,
      [id, owner],
    );
    return rows[0] ?? null;
  });
}

/** Calls per key of the owner over the last `days` UTC days (today included). Tables: api_keys, api_key_usage. */
export async function usageByKey(pool: PgPool, owner: string, days: number) {
  const { rows } = await pool.query<{ id: string; prefix: string; description: string; totalCalls: string }>(
    `SELECT k.id, k.prefix, k.description, COALESCE(sum(u.count), 0)::text AS "totalCalls"
     FROM api_keys k LEFT JOIN api_key_usage u ON u.key_id = k.id AND u.day > (now() AT TIME ZONE 'UTC')::date - $2::int
     WHERE k.owner_address = $1 GROUP BY k.id ORDER BY k.created_at, k.id`,
    [owner, days],
  );
  return rows.map((r) => ({ ...r, totalCalls: Number(r.totalCalls) }));
}

/** Daily per-endpoint calls of one key over the last `days` UTC days. Tables: api_key_usage. */
export async function dailyUsage(pool: PgPool, keyId: string, days: number) {
  const { rows } = await pool.query<{ date: string; endpoint: string; count: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS date, endpoint, count::text AS count FROM api_key_usage
     WHERE key_id = $1 AND day > (now() AT TIME ZONE 'UTC')::date - $2::int ORDER BY day, endpoint`,
    [keyId, days],
  );
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

/** Whether `id` is one of the owner's keys. Tables: api_keys. */
export async function ownsKey(pool: PgPool, owner: string, id: string): Promise<boolean> {
  const { rowCount } = await pool.query('SELECT 1 FROM api_keys WHERE id = $1 AND owner_address = $2', [id, owner]);
  return Boolean(rowCount);
}
