import type { PgClient, PgPool } from '../../../internal/pg.js';

/** One CampaignReallocation log of a campaign, as served on GET /v4/campaigns/{id}. */
export type ServedReallocation = { from: string[]; to: string; txHash: string; blockNumber: number; timestamp: number };

/**
 * The reallocations of each campaign of `campaignDbIds` (their CampaignReallocation logs: the
 * addresses whose rewards were moved and the recipient), oldest first; a campaign without any maps
 * to an empty list. One query. Table campaign_reallocations.
 */
export async function loadReallocations(
  db: Pick<PgPool | PgClient, 'query'>,
  campaignDbIds: readonly string[],
): Promise<Map<string, ServedReallocation[]>> {
  const byCampaign = new Map(campaignDbIds.map((id) => [id, [] as ServedReallocation[]]));
  if (!campaignDbIds.length) return byCampaign;
  const { rows } = await db.query<{
    campaign_db_id: string;
    from_addresses: string[];
    to_address: string;
    tx_hash: string;
    block_number: string;
    timestamp: string;
  }>(
    `SELECT campaign_db_id, from_addresses, to_address, tx_hash, block_number::text, timestamp::text FROM campaign_reallocations
     WHERE campaign_db_id = ANY($1::text[]) ORDER BY block_number, log_index`,
    [campaignDbIds],
  );
  for (const r of rows) {
    byCampaign.get(r.campaign_db_id)?.push({
      from: r.from_addresses,
      to: r.to_address,
      txHash: r.tx_hash,
      blockNumber: Number(r.block_number),
      timestamp: Number(r.timestamp),
    });
  }
  return byCampaign;
}
