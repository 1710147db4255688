import type { LogPosition } from '../../domain/logPosition.js';
import type { RewardTokenMinAmountEvent } from '../decode/campaignEvents.js';

/** A `reward_token_min_amounts` row: one whitelist log (amount in base units per hour, as a decimal string). */
export type RewardTokenMinAmountRow = LogPosition & { token: string; amount: string };

/** Pure: RewardTokenMinimumAmountUpdated events → rows (uint256 amounts as decimal strings for numeric(78,0)). */
export function toRewardTokenMinAmountRows(events: readonly RewardTokenMinAmountEvent[]): RewardTokenMinAmountRow[] {
  return events.map(({ token, amount, ...position }) => ({
    ...position,
    token: token.toLowerCase(),
    amount: amount.toString(),
  }));
}
