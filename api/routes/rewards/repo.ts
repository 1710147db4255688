import type { PgClient, PgPool } from '../../../internal/pg.js';

/** One breakdown of a campaign in a root, with what its recipient claimed of the token in total. */
export type CampaignRewardRow = {
  recipient: string;
  campaign_id: string;
  reason: string;
  token: string;
  amount: string;
  claimed: string;
};

export type ListCampaignRewardsParams = {
  chainId: number;
  root: string;
  campaignId: string;
  hide: boolean;
  items: number;
  page: number;
};

/**
 * The campaign's reward breakdowns in `root` (verified trees only ever have rows), by descending
 * amount, each with the recipient's claimed total of the token (sum of Claimed deltas, as
 * claimedTotals computes it). With `hide`, recipients with nothing left to claim are left out.
 * Tables reward_breakdowns, claims.
 */
export async function listCampaignRewards(
  db: Pick<PgPool | PgClient, 'query'>,
  p: ListCampaignRewardsParams,
): Promise<CampaignRewardRow[]> {
  const { rows } = await db.query<CampaignRewardRow>(
    `WITH claimed AS (
       SELECT recipient, token, sum(amount) AS claimed FROM claims WHERE chain_id = $1 GROUP BY recipient, token
     )
     SELECT b.recipient, b.campaign_id, b.reason, b.token, b.amount::text AS amount, coalesce(c.claimed, 0)::text AS claimed
     FROM reward_breakdowns b LEFT JOIN claimed c ON c.recipient = b.recipient AND c.token = b.token
     WHERE b.chain_id = $1 AND b.root = $2 AND b.campaign_id IN ($3, lower($3))
       AND (NOT $4::boolean OR b.amount > coalesce(c.claimed, 0))
     ORDER BY b.amount DESC, b.recipient, b.token, b.reason LIMIT $5 OFFSET $6`,
    [p.chainId, p.root.toLowerCase(), p.campaignId, p.hide, p.items, p.page * p.items],
  );
  return rows;
}
