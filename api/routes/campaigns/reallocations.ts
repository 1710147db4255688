import type { PgClient, PgPool } from '../../../internal/pg.js';

/** One CampaignReallocation log of a campaign, as served on GET /v4/campaigns/{id}. */
export type ServedReallocation = { from: string[]; to: string; txHash: string; blockNumber: number; timestamp: number };

/**
 * The reallocations of a campaign (its CampaignReallocation logs: the addresses whose rewards were
 * moved and the recipient), oldest first. Table campaign_reallocations.
 */
export async function loadReallocations(
  db: Pick<PgPool | PgClient, 'query'>,
  campaignDbId: string,
): Promise<ServedReallocation[]> {
  const { rows } = await db.query<{
    from_addresses: string[];
    to_address: string;
    tx_hash: string;
    block_number: string;
    timestamp: string;
  }>(
    `SELECT from_addresses, to_address, tx_hash, block_number::text, timestamp::text FROM campaign_reallocations
     WHERE campaign_db_id = $1 ORDER BY block_number, log_index`,
    [campaignDbId],
  );
  return rows.map((r) => ({
    from: r.from_addresses,
    to: r.to_address,
    txHash: r.tx_hash,
    blockNumber: Number(r.block_number),
    timestamp: Number(r.timestamp),
  }));
}
