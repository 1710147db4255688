import type { TokenFlagsConfig } from '../../internal/config.js';
import type { PgClient, PgPool } from '../../internal/pg.js';
import { tokenDbId } from '../../domain/ids.js';
import type { TokenRow } from '../../domain/readTokenMetadata.js';

/**
 * `column = value` unless the back office curated the column (tokens.curated_fields, set by POST/PATCH /v4/tokens):
 * every job write below goes through it, so an operator's edit survives the next run.
 */
const unlessCurated = (column: string, value: string) =>
  `${column} = CASE WHEN '${column}' = ANY(t.curated_fields) THEN t.${column} ELSE ${value} END`;

/** Batch upsert of ERC20 metadata; flags (verified, type, ...) set by operators are left alone, and curated fields. */
export async function upsertTokens(client: PgClient, rows: TokenRow[]): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `INSERT INTO tokens AS t (id, chain_id, address, name, symbol, decimals)
     SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::int[])
     ON CONFLICT (chain_id, address) DO UPDATE SET ${unlessCurated('name', 'EXCLUDED.name')},
       ${unlessCurated('symbol', 'EXCLUDED.symbol')}, ${unlessCurated('decimals', 'EXCLUDED.decimals')}, updated_at = now()`,
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
    `WITH f AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::bool[], $5::bool[], $6::bool[], $7::text[], $8::text[], $9::bool[])
         AS f(address, type, verified, is_test, stablecoin, icon, display_symbol, is_native))
     UPDATE tokens t SET
       ${unlessCurated('type', 'COALESCE(f.type, t.type)')}, ${unlessCurated('verified', 'COALESCE(f.verified, t.verified)')},
       ${unlessCurated('is_test', 'COALESCE(f.is_test, t.is_test)')}, is_stablecoin = COALESCE(f.stablecoin, t.is_stablecoin),
       ${unlessCurated('icon', 'COALESCE(f.icon, t.icon)')}, ${unlessCurated('display_symbol', 'COALESCE(f.display_symbol, t.display_symbol)')},
       is_native = COALESCE(f.is_native, t.is_native), updated_at = now()
     FROM f
     WHERE t.chain_id = $1 AND t.address = f.address
       AND (t.type, t.verified, t.is_test, t.is_stablecoin, t.icon, t.display_symbol, t.is_native) IS DISTINCT FROM
           (CASE WHEN 'type' = ANY(t.curated_fields) THEN t.type ELSE COALESCE(f.type, t.type) END,
            CASE WHEN 'verified' = ANY(t.curated_fields) THEN t.verified ELSE COALESCE(f.verified, t.verified) END,
            CASE WHEN 'is_test' = ANY(t.curated_fields) THEN t.is_test ELSE COALESCE(f.is_test, t.is_test) END,
            COALESCE(f.stablecoin, t.is_stablecoin),
            CASE WHEN 'icon' = ANY(t.curated_fields) THEN t.icon ELSE COALESCE(f.icon, t.icon) END,
            CASE WHEN 'display_symbol' = ANY(t.curated_fields) THEN t.display_symbol ELSE COALESCE(f.display_symbol, t.display_symbol) END,
            COALESCE(f.is_native, t.is_native))
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
    `UPDATE tokens t SET ${unlessCurated('name', 'm.name')}, ${unlessCurated('symbol', 'm.symbol')},
       ${unlessCurated('decimals', 'm.decimals')}, updated_at = now()
     FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[]) AS m(chain_id, address, name, symbol, decimals)
     WHERE t.chain_id = m.chain_id AND t.address = m.address
       AND (t.name, t.symbol, t.decimals) IS DISTINCT FROM (
         CASE WHEN 'name' = ANY(t.curated_fields) THEN t.name ELSE m.name END,
         CASE WHEN 'symbol' = ANY(t.curated_fields) THEN t.symbol ELSE m.symbol END,
         CASE WHEN 'decimals' = ANY(t.curated_fields) THEN t.decimals ELSE m.decimals END)
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

// Shared with the back office's token writes (api/routes/reference-data/), hence in domain/.
export { documentsUsingTokens } from '../../domain/tables/tokens.js';
