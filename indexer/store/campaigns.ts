import type { PgClient } from '../../internal/pg.js';
import type { CampaignRow } from '../transform/campaigns.js';

/**
 * Batch upsert of campaigns keyed by (distribution chain, campaignId): replaying a range rewrites
 * the same rows and never duplicates them.
 * @returns the internal ids written.
 */
export async function upsertCampaigns(client: PgClient, rows: CampaignRow[]): Promise<string[]> {
  if (!rows.length) return [];
  const col = <K extends keyof CampaignRow>(k: K) => rows.map((r) => r[k]);
  await client.query(
    `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount,
       campaign_type, start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at)
     SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::numeric[],
       $8::int[], $9::bigint[], $10::bigint[], $11::text[], $12::bigint[], $13::text[], $14::text[], $15::int[], $16::timestamptz[])
     ON CONFLICT (distribution_chain_id, campaign_id) DO UPDATE SET
       compute_chain_id = EXCLUDED.compute_chain_id, creator = EXCLUDED.creator, reward_token = EXCLUDED.reward_token,
       amount = EXCLUDED.amount, campaign_type = EXCLUDED.campaign_type, start_timestamp = EXCLUDED.start_timestamp,
       end_timestamp = EXCLUDED.end_timestamp, campaign_data = EXCLUDED.campaign_data, block_number = EXCLUDED.block_number,
       block_hash = EXCLUDED.block_hash, tx_hash = EXCLUDED.tx_hash, log_index = EXCLUDED.log_index, created_at = EXCLUDED.created_at`,
    [col('id'), col('distributionChainId'), col('computeChainId'), col('campaignId'), col('creator'), col('rewardToken'), col('amount'),
      col('campaignType'), col('startTimestamp'), col('endTimestamp'), col('campaignData'), col('blockNumber'), col('blockHash'),
      col('txHash'), col('logIndex'), col('createdAt')],
  );
  return rows.map((r) => r.id);
}
