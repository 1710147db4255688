import type { PgClient, PgPool } from '../../../internal/pg.js';
import type { RewardRowKey } from './pageBoundaries.js';

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
  /** Rows to skip (after `after` when given). */
  offset: number;
  /** Start after this row (the end of an earlier page), or from the largest. */
  after: RewardRowKey | null;
};

/**
 * The campaign's reward breakdowns in `root` (verified trees only ever have rows), by descending
 * amount, each with the recipient's claimed total of the token (sum of Claimed deltas, as
 * claimedTotals computes it). With `hide`, recipients with nothing left to claim are left out.
 * A page walks the campaign's breakdowns largest first (an index), from `after` when given (an
 * index range: amount ≤ its amount, then the order's tie-break), reading each one's claims by index.
 * Tables reward_breakdowns (view over reward_breakdown_versions), claims.
 */
/** SQL: what the recipient of row `alias` claimed of its token on chain $1 (the sum of Claimed deltas). */
const claimedOf = (alias: string) =>
  `(SELECT coalesce(sum(k.amount), 0) FROM claims k WHERE k.recipient = ${alias}.recipient AND k.chain_id = $1 AND k.token = ${alias}.token)`;

export async function listCampaignRewards(
  db: Pick<PgPool | PgClient, 'query'>,
  p: ListCampaignRewardsParams,
): Promise<CampaignRewardRow[]> {
  // Ids are stored as the tree states them (on-chain ids: lower-case hex); one value lets PostgreSQL
  // walk the campaign's breakdowns by amount (reward_breakdown_versions_campaign_amount_idx) instead of sorting them all.
  const campaign =
    p.campaignId === p.campaignId.toLowerCase() ? 'b.campaign_id = $3' : 'b.campaign_id IN ($3, lower($3))';
  const args: unknown[] = [p.chainId, p.root.toLowerCase(), p.campaignId, p.hide, p.items, p.offset];
  let after = '';
  if (p.after) {
    args.push(p.after.amount, p.after.recipient, p.after.token, p.after.reason);
    // `amount <= $7` alone bounds the index scan; the rest orders ties as ORDER BY does.
    after = 'AND b.amount <= $7 AND (b.amount < $7 OR (b.recipient, b.token, b.reason) > ($8, $9, $10))';
  }
  const { rows } = await db.query<CampaignRewardRow>(
    `WITH page AS (
       SELECT b.recipient, b.campaign_id, b.reason, b.token, b.amount FROM reward_breakdowns b
       WHERE b.chain_id = $1 AND b.root = $2 AND ${campaign} ${after}
         -- Claims are read only to hide (then per breakdown, by claims_recipient_idx).
         AND (NOT $4::boolean OR b.amount > ${claimedOf('b')})
       ORDER BY b.amount DESC, b.recipient, b.token, b.reason LIMIT $5 OFFSET $6
     )
     SELECT p.recipient, p.campaign_id, p.reason, p.token, p.amount::text AS amount, ${claimedOf('p')}::text AS claimed
     FROM page p ORDER BY p.amount DESC, p.recipient, p.token, p.reason`,
    args,
  );
  return rows;
}
