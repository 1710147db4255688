import { withTransaction as inWriteTransaction, type PgPool } from '../../../internal/pg.js';

/** Stores a freshly issued nonce with the exact message it belongs to. Tables: auth_nonces. */
export async function insertNonce(
  pool: PgPool,
  params: { nonce: string; address: string; message: string; expiresAt: Date },
): Promise<void> {
  await inWriteTransaction(pool, async (client) => {
    // Expired nonces are useless: sweep a few on each issue so the table stays small.
    await client.query(
      "DELETE FROM auth_nonces WHERE nonce IN (SELECT nonce FROM auth_nonces WHERE expires_at < now() - interval '1 hour' LIMIT 100)",
    );
    await client.query('INSERT INTO auth_nonces (nonce, address, message, expires_at) VALUES ($1, $2, $3, $4)', [
      params.nonce,
      params.address.toLowerCase(),
      params.message,
      params.expiresAt,
    ]);
  });
}

/**
 * Whether `nonce` was issued for this address and exact message and is neither expired nor used: the
 * check before a login's signature is verified (a contract wallet's costs a chain call). Consuming it
 * stays consumeNonceAndLoadUser's, after the signature passed. Tables: auth_nonces.
 */
export async function isNonceLive(
  pool: PgPool,
  params: { nonce: string; address: string; message: string },
): Promise<boolean> {
  const { rowCount } = await pool.query(
    'SELECT 1 FROM auth_nonces WHERE nonce = $1 AND address = $2 AND message = $3 AND used_at IS NULL AND expires_at > now()',
    [params.nonce, params.address.toLowerCase(), params.message],
  );
  return (rowCount ?? 0) > 0;
}

export type LoginUser = { tier: number; tags: string[] };

/**
 * Consumes the nonce (single use: the UPDATE … WHERE used_at IS NULL lets only one of two parallel
 * logins through) and creates or reads the user, in one transaction.
 * @returns the user, or null when the nonce is unknown, for another address or message, expired or used.
 * Tables: auth_nonces, users.
 */
export async function consumeNonceAndLoadUser(
  pool: PgPool,
  params: { nonce: string; address: string; message: string },
): Promise<LoginUser | null> {
  return inWriteTransaction(pool, async (client) => {
    const consumed = await client.query(
      `UPDATE auth_nonces SET used_at = now()
       WHERE nonce = $1 AND address = $2 AND message = $3 AND used_at IS NULL AND expires_at > now() RETURNING nonce`,
      [params.nonce, params.address.toLowerCase(), params.message],
    );
    if (!consumed.rowCount) return null;
    const { rows } = await client.query<LoginUser>(
      `INSERT INTO users (address) VALUES ($1) ON CONFLICT (address) DO UPDATE SET address = EXCLUDED.address RETURNING tier, tags`,
      [params.address.toLowerCase()],
    );
    return rows[0]!;
  });
}

/** The user's current tags and tier (defaults for a user row not created yet). Tables: users. */
export async function loadUser(pool: PgPool, address: string): Promise<LoginUser | null> {
  const { rows } = await pool.query<LoginUser>('SELECT tier, tags FROM users WHERE address = $1', [
    address.toLowerCase(),
  ]);
  return rows[0] ?? null;
}

/** Revokes a session by jti until its expiry (idempotent). Tables: revoked_tokens. */
export async function revokeToken(pool: PgPool, jti: string, expiresAt: Date): Promise<void> {
  await inWriteTransaction(pool, async (client) => {
    await client.query(
      'DELETE FROM revoked_tokens WHERE jti IN (SELECT jti FROM revoked_tokens WHERE expires_at < now() LIMIT 100)',
    );
    await client.query('INSERT INTO revoked_tokens (jti, expires_at) VALUES ($1, $2) ON CONFLICT (jti) DO NOTHING', [
      jti,
      expiresAt,
    ]);
  });
}
