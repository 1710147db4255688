import type { PgClient, PgPool } from '../../internal/pg.js';

/** A `rewards` row with its breakdowns, amounts as decimal strings. */
export type RewardRecord = {
  recipient: string;
  token: string;
  amount: string;
  breakdowns: { campaignId: string; reason: string; amount: string }[];
};

/**
 * Rewards stored for a root (only verified trees have any), with their breakdowns, ordered by
 * recipient then token; optionally for one recipient.
 */
export async function loadRewards(
  db: PgPool | PgClient,
  params: { chainId: number; root: string; recipient?: string },
): Promise<RewardRecord[]> {
  const { rows } = await db.query<{
    recipient: string;
    token: string;
    amount: string;
    breakdowns: RewardRecord['breakdowns'];
  }>(
    `SELECT r.recipient, r.token, r.amount::text AS amount,
       coalesce(json_agg(json_build_object('campaignId', b.campaign_id, 'reason', b.reason, 'amount', b.amount::text)
         ORDER BY b.campaign_id, b.reason) FILTER (WHERE b.campaign_id IS NOT NULL), '[]') AS breakdowns
     FROM rewards r
     LEFT JOIN reward_breakdowns b ON b.chain_id = r.chain_id AND b.root = r.root AND b.recipient = r.recipient AND b.token = r.token
     WHERE r.chain_id = $1 AND r.root = $2 AND ($3::text IS NULL OR r.recipient = $3)
     GROUP BY r.recipient, r.token, r.amount ORDER BY r.recipient, r.token`,
    [params.chainId, params.root.toLowerCase(), params.recipient?.toLowerCase() ?? null],
  );
  return rows;
}
