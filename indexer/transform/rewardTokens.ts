import type { RewardTokenMinAmountEvent } from '../decode/campaignEvents.js';

/** A `reward_token_min_amounts` row: one whitelist log (amount in base units per hour, as a decimal string). */
export type RewardTokenMinAmountRow = {
  chainId: number;
  token: string;
  amount: string;
  blockNumber: number;
  blockHash: string;
  txHash: string;
  logIndex: number;
};

/** Pure: RewardTokenMinimumAmountUpdated events → rows (uint256 amounts as decimal strings for numeric(78,0)). */
export function toRewardTokenMinAmountRows(events: readonly RewardTokenMinAmountEvent[]): RewardTokenMinAmountRow[] {
  return events.map((e) => ({
    chainId: e.chainId,
    token: e.token.toLowerCase(),
    amount: e.amount.toString(),
    blockNumber: e.blockNumber,
    blockHash: e.blockHash,
    txHash: e.txHash,
    logIndex: e.logIndex,
  }));
}
