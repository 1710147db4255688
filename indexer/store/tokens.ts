import type { TokenFlagsConfig } from '../../internal/config.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import { tokenDbId } from '../../domain/ids.js';
import type { TokenRow } from '../../domain/readTokenMetadata.js';

/** Batch upsert of ERC20 metadata; flags (verified, type, ...) set by operators are left alone. */
export async function upsertTokens(client: PgClient, rows: TokenRow[]): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `INSERT INTO tokens (id, chain_id, address, name, symbol, decimals)
     SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::int[])
     ON CONFLICT (chain_id, address) DO UPDATE SET name = EXCLUDED.name, symbol = EXCLUDED.symbol, decimals = EXCLUDED.decimals, updated_at = now()`,
    [
      rows.map((r) => tokenDbId(r.chainId, r.address)),
      rows.map((r) => r.chainId),
      rows.map((r) => r.address.toLowerCase()),
      rows.map((r) => r.name),
      rows.map((r) => r.symbol),
      rows.map((r) => r.decimals),
    ],
  );
}

/** Native tokens are stored at the zero address of their chain. */
export const NATIVE_TOKEN_ADDRESS = '0x0000000000000000000000000000000000000000';

/** Operator flags of one token (the chain config's `tokens` entries), plus the native marker. */
export type TokenFlags = Omit<TokenFlagsConfig, 'address'> & { address: string; isNative?: boolean };

/**
 * Applies operator flags to existing token rows (unset flags keep their value).
 * @returns the lower-cased addresses whose row actually changed.
 */
export async function applyTokenFlags(client: PgClient, chainId: number, flags: TokenFlags[]): Promise<string[]> {
  if (!flags.length) return [];
  const { rows } = await client.query<{ address: string }>(
    `UPDATE tokens t SET
       type = COALESCE(f.type, t.type), verified = COALESCE(f.verified, t.verified), is_test = COALESCE(f.is_test, t.is_test),
       is_stablecoin = COALESCE(f.stablecoin, t.is_stablecoin), icon = COALESCE(f.icon, t.icon),
       display_symbol = COALESCE(f.display_symbol, t.display_symbol), is_native = COALESCE(f.is_native, t.is_native), updated_at = now()
     FROM unnest($2::text[], $3::text[], $4::bool[], $5::bool[], $6::bool[], $7::text[], $8::text[], $9::bool[])
       AS f(address, type, verified, is_test, stablecoin, icon, display_symbol, is_native)
     WHERE t.chain_id = $1 AND t.address = f.address
       AND (t.type, t.verified, t.is_test, t.is_stablecoin, t.icon, t.display_symbol, t.is_native) IS DISTINCT FROM
           (COALESCE(f.type, t.type), COALESCE(f.verified, t.verified), COALESCE(f.is_test, t.is_test), COALESCE(f.stablecoin, t.is_stablecoin),
            COALESCE(f.icon, t.icon), COALESCE(f.display_symbol, t.display_symbol), COALESCE(f.is_native, t.is_native))
     RETURNING t.address`,
    [
      chainId,
      flags.map((f) => f.address.toLowerCase()),
      flags.map((f) => f.type ?? null),
      flags.map((f) => f.verified ?? null),
      flags.map((f) => f.isTest ?? null),
      flags.map((f) => f.stablecoin ?? null),
      flags.map((f) => f.icon ?? null),
      flags.map((f) => f.displaySymbol ?? null),
      flags.map((f) => f.isNative ?? null),
    ],
  );
  return rows.map((r) => r.address);
}

/** Every stored token address of a chain except the native one (for metadata refreshes). */
export async function listTokenAddresses(db: PgClient | PgPool, chainId: number): Promise<string[]> {
  const { rows } = await db.query<{ address: string }>(
    'SELECT address FROM tokens WHERE chain_id = $1 AND NOT is_native ORDER BY address',
    [chainId],
  );
  return rows.map((r) => r.address);
}

/**
 * Rewrites name/symbol/decimals where they differ from the chain's answer.
 * @returns the lower-cased addresses whose metadata changed.
 */
export async function updateTokenMetadata(client: PgClient, rows: TokenRow[]): Promise<string[]> {
  if (!rows.length) return [];
  const res = await client.query<{ address: string }>(
    `UPDATE tokens t SET name = m.name, symbol = m.symbol, decimals = m.decimals, updated_at = now()
     FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[]) AS m(chain_id, address, name, symbol, decimals)
     WHERE t.chain_id = m.chain_id AND t.address = m.address AND (t.name, t.symbol, t.decimals) IS DISTINCT FROM (m.name, m.symbol, m.decimals)
     RETURNING t.address`,
    [
      rows.map((r) => r.chainId),
      rows.map((r) => r.address.toLowerCase()),
      rows.map((r) => r.name),
      rows.map((r) => r.symbol),
      rows.map((r) => r.decimals),
    ],
  );
  return res.rows.map((r) => r.address);
}

/**
 * Campaigns rewarding in, and opportunities named after (their identifier, or a token of the pool or
 * market they stand on), the given tokens of a chain (to re-project).
 */
export async function documentsUsingTokens(
  client: PgClient,
  chainId: number,
  addresses: string[],
): Promise<{ campaigns: string[]; opportunities: string[] }> {
  if (!addresses.length) return { campaigns: [], opportunities: [] };
  const [c, o] = await Promise.all([
    client.query<{ id: string }>(
      'SELECT id FROM campaigns WHERE distribution_chain_id = $1 AND reward_token = ANY($2::text[])',
      [chainId, addresses],
    ),
    client.query<{ id: string }>(
      `SELECT id FROM opportunities WHERE chain_id = $1 AND identifier = ANY($2::text[])
       UNION SELECT u.opportunity_id FROM opportunity_underlying u JOIN opportunities o ON o.id = u.opportunity_id
         WHERE u.tokens && $2::text[] AND o.chain_id = $1
       UNION SELECT DISTINCT opportunity_id FROM campaigns_current WHERE distribution_chain_id = $1 AND reward_token = ANY($2::text[]) AND opportunity_id IS NOT NULL`,
      [chainId, addresses],
    ),
  ]);
  return { campaigns: c.rows.map((r) => r.id), opportunities: o.rows.map((r) => r.id) };
}
