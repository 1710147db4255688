import type { Queryable } from '../../internal/pg.js';

/**
 * The ids under which chain `chainId`'s stored breakdowns name the campaign `lowerId` (lower case): a tree
 * states ids as it likes, and reads match them case-insensitively. Every stored breakdown's campaign
 * id has rows in reward_campaign_totals (indexer/store/rewardTotals.ts writes one whenever a tree
 * changes a campaign's total or recipients, and a campaign's first breakdown adds a recipient), so
 * the ids come from that small table (reward_campaign_totals_lower_id_idx); the caller then reads the
 * breakdowns by `campaign_id = ANY(ids)` through reward_breakdown_versions_campaign_amount_idx,
 * instead of comparing lower(campaign_id) on every breakdown of the chain.
 */
export async function storedCampaignIds(db: Queryable, chainId: number, lowerId: string): Promise<string[]> {
  const { rows } = await db.query<{ campaign_id: string }>(
    'SELECT DISTINCT campaign_id FROM reward_campaign_totals WHERE chain_id = $1 AND lower(campaign_id) = $2',
    [chainId, lowerId],
  );
  return rows.map((r) => r.campaign_id);
}
