import type { PgClient } from '../../internal/pg.js';

/**
 * Stamps campaigns whose document was just written for the first time (no row yet in
 * campaign_first_publications), inside the projector's transaction, after its bulk write succeeded.
 * Re-projections keep the first time, so freshness counts each campaign once.
 * @returns how many campaigns were published for the first time.
 */
export async function recordFirstPublication(client: PgClient, campaignIds: string[]): Promise<number> {
  if (!campaignIds.length) return 0;
  // clock_timestamp(), not now(): the transaction began before the bulk write; PostgreSQL's clock
  // keeps the measure comparable across processes.
  const res = await client.query(
    `INSERT INTO campaign_first_publications (campaign_db_id, published_at)
     SELECT id, clock_timestamp() FROM unnest($1::text[]) AS id ON CONFLICT (campaign_db_id) DO NOTHING`,
    [campaignIds],
  );
  return res.rowCount ?? 0;
}
