import type { CampaignRewardRow } from './repo.js';

/**
 * Reward recipient row of GET /v4/rewards (docs/api-behaviour.md#reward-recipients); amounts are integer token units as
 * strings.
 */
export type RewardResponse = {
  recipient: string;
  campaignId: string;
  reason: string;
  rewardTokenAddress: string;
  amount: string;
  claimed: string;
  pending: string;
};

/**
 * Pure: a breakdown row → the public reward row. `claimed` is what the recipient claimed of the
 * token (per recipient and token, as the Distributor tracks it); `pending` is amount − claimed,
 * never negative.
 */
export function serializeReward(row: CampaignRewardRow): RewardResponse {
  const pending = BigInt(row.amount) - BigInt(row.claimed);
  return {
    recipient: row.recipient,
    campaignId: row.campaign_id,
    reason: row.reason,
    rewardTokenAddress: row.token,
    amount: row.amount,
    claimed: row.claimed,
    pending: (pending > 0n ? pending : 0n).toString(),
  };
}
