import type { RewardRecord } from '../rewards.js';
import type { CampaignInfo, TokenInfo } from './repo.js';

/** Breakdowns per reward and page of GET /v4/users/{address}/rewards (`breakdownPage`). */
export const BREAKDOWN_PAGE_SIZE = 100;

export type CampaignStatus = 'LIVE' | 'PAST' | 'SOON';

/** Pure: a campaign's status at `now` (Unix seconds): SOON before start, PAST from its end. */
export function campaignStatusAt(c: Pick<CampaignInfo, 'start' | 'end'>, now: number): CampaignStatus {
  return now < c.start ? 'SOON' : now >= c.end ? 'PAST' : 'LIVE';
}

/**
 * Pure: what a recipient has claimed of a token, capped at its cumulative amount in the tree
 * (a later, smaller root would otherwise make pending negative).
 */
export function cappedClaimed(amount: bigint, claimedTotal: bigint): bigint {
  return claimedTotal > amount ? amount : claimedTotal < 0n ? 0n : claimedTotal;
}

/**
 * Pure: splits what was claimed of a token over its breakdowns pro rata to their amounts (the
 * Distributor only tracks claims per recipient and token). Rounding remainders go, one unit each, to
 * the first breakdowns with room, so the parts sum to `claimed` and none exceeds its amount.
 */
export function splitClaimed(amounts: readonly bigint[], claimed: bigint): bigint[] {
  const total = amounts.reduce((s, a) => s + a, 0n);
  if (total === 0n) return amounts.map(() => 0n);
  const capped = claimed > total ? total : claimed;
  const parts = amounts.map((a) => (a * capped) / total);
  let rest = capped - parts.reduce((s, p) => s + p, 0n);
  for (let i = 0; rest > 0n && i < parts.length; i++) {
    if (parts[i]! < amounts[i]!) (parts[i]! += 1n), (rest -= 1n);
  }
  return parts;
}

export type UserRewardBreakdown = {
  reason: string;
  amount: string;
  claimed: string;
  pending: string;
  campaignId: string;
  campaignStatus?: CampaignStatus;
};

export type UserReward = {
  root: string;
  recipient: string;
  proofs: string[];
  token: { address: string; chainId: number; symbol: string; decimals: number };
  amount: string;
  claimed: string;
  pending: string;
  breakdowns: UserRewardBreakdown[];
};

export type SerializeUserRewardParams = {
  chainId: number;
  root: string;
  reward: RewardRecord;
  claimedTotal: bigint;
  proofs: readonly string[];
  token: TokenInfo | undefined;
  campaigns: ReadonlyMap<string, CampaignInfo>;
  now: number;
  breakdownPage: number;
};

/**
 * Pure: one leaf of the live tree → the public reward (docs/api-behaviour.md#user-rewards). `amount` is the
 * cumulative amount of the leaf (what `claim` takes), `claimed` the capped claimed total, `pending`
 * their difference; breakdowns get a pro-rata share of `claimed` and are paged by `breakdownPage`.
 */
export function serializeUserReward(p: SerializeUserRewardParams): UserReward {
  const amount = BigInt(p.reward.amount);
  const claimed = cappedClaimed(amount, p.claimedTotal);
  const shares = splitClaimed(
    p.reward.breakdowns.map((b) => BigInt(b.amount)),
    claimed,
  );
  const breakdowns = p.reward.breakdowns.map((b, i): UserRewardBreakdown => {
    const campaign = p.campaigns.get(b.campaignId.toLowerCase());
    return {
      reason: b.reason,
      amount: b.amount,
      claimed: shares[i]!.toString(),
      pending: (BigInt(b.amount) - shares[i]!).toString(),
      campaignId: b.campaignId,
      ...(campaign ? { campaignStatus: campaignStatusAt(campaign, p.now) } : {}),
    };
  });
  return {
    root: p.root,
    recipient: p.reward.recipient,
    proofs: [...p.proofs],
    token: {
      address: p.reward.token,
      chainId: p.chainId,
      symbol: p.token?.symbol ?? '',
      decimals: p.token?.decimals ?? 18,
    },
    amount: amount.toString(),
    claimed: claimed.toString(),
    pending: (amount - claimed).toString(),
    breakdowns: breakdowns.slice(p.breakdownPage * BREAKDOWN_PAGE_SIZE, (p.breakdownPage + 1) * BREAKDOWN_PAGE_SIZE),
  };
}
