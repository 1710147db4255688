import type { PgClient, Queryable } from '../../internal/pg.js';

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
