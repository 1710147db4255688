import type { Queryable } from '../../internal/pg.js';

/** Addresses (lower-cased) among `addresses` that have no token row on `chainId` yet. */
export async function missingTokens(client: Queryable, chainId: number, addresses: string[]): Promise<string[]> {
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (!unique.length) return [];
  const { rows } = await client.query<{ address: string }>(
    'SELECT address FROM tokens WHERE chain_id = $1 AND address = ANY($2::text[])',
    [chainId, unique],
  );
  const known = new Set(rows.map((r) => r.address));
  return unique.filter((a) => !known.has(a));
}
