import type { PgClient, PgPool } from '../../internal/pg.js';
import { tokenDbId } from '../ids.js';

export type TokenRow = { chainId: number; address: string; name: string | null; symbol: string; decimals: number };

/** Addresses (lower-cased) among `addresses` that have no token row on `chainId` yet. */
export async function missingTokens(client: PgClient | PgPool, chainId: number, addresses: string[]): Promise<string[]> {
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (!unique.length) return [];
  const { rows } = await client.query<{ address: string }>('SELECT address FROM tokens WHERE chain_id = $1 AND address = ANY($2::text[])', [chainId, unique]);
  const known = new Set(rows.map((r) => r.address));
  return unique.filter((a) => !known.has(a));
}

/** Batch upsert of ERC20 metadata; flags (verified, type, ...) set by operators are left alone. */
export async function upsertTokens(client: PgClient, rows: TokenRow[]): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `INSERT INTO tokens (id, chain_id, address, name, symbol, decimals)
     SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::int[])
     ON CONFLICT (chain_id, address) DO UPDATE SET name = EXCLUDED.name, symbol = EXCLUDED.symbol, decimals = EXCLUDED.decimals, updated_at = now()`,
    [rows.map((r) => tokenDbId(r.chainId, r.address)), rows.map((r) => r.chainId), rows.map((r) => r.address.toLowerCase()),
      rows.map((r) => r.name), rows.map((r) => r.symbol), rows.map((r) => r.decimals)],
  );
}
