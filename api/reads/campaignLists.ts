import type { PgPool } from '../../internal/pg.js';

/**
 * Union of the campaign ids in `names` (lower-cased) owned by `owner` (lower-cased); unknown lists
 * contribute nothing. Tables: campaign_lists.
 */
export async function loadCampaignListIds(
  client: Pick<PgPool, 'query'>,
  owner: string,
  names: string[],
): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    'SELECT DISTINCT unnest(campaign_ids) AS id FROM campaign_lists WHERE owner = $1 AND name = ANY($2::text[]) ORDER BY 1',
    [owner.toLowerCase(), names.map((n) => n.toLowerCase())],
  );
  return rows.map((r) => r.id);
}
