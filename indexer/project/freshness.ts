import type { PgClient } from '../../internal/pg.js';

/**
 * Marks campaigns whose document was just written for the first time (first_published_at still
 * null), inside the projector's transaction, after its bulk write succeeded. Re-projections keep
 * the first time, so freshness counts each campaign once.
 * @returns how many campaigns were published for the first time.
 */
export async function recordFirstPublication(client: PgClient, campaignIds: string[]): Promise<number> {
  if (!campaignIds.length) return 0;
  // clock_timestamp(), not now(): the transaction began before the bulk write; PostgreSQL's clock
  // keeps the measure comparable across processes.
  const res = await client.query(
    'UPDATE campaigns SET first_published_at = clock_timestamp() WHERE id = ANY($1::text[]) AND first_published_at IS NULL',
    [campaignIds],
  );
  return res.rowCount ?? 0;
}
