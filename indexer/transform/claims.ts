import type { ClaimedEvent } from '../decode/distributorEvents.js';
import { positionedRow } from './roots.js';

/** A `claims` row: the delta paid to `recipient` in one Claimed log (decimal string). */
export type ClaimRow = {
  chainId: number;
  recipient: string;
  token: string;
  amount: string;
  blockNumber: number;
  blockHash: string;
  txHash: string;
  logIndex: number;
  timestamp: number;
};

/**
 * Pure: Claimed events → `claims` rows.
 * @param timestamps block number → block time, for every block holding an event.
 */
export function toClaimRows(events: readonly ClaimedEvent[], timestamps: ReadonlyMap<number, number>): ClaimRow[] {
  return events.map((e) => ({
    ...positionedRow(e, timestamps),
    recipient: e.recipient,
    token: e.token,
    amount: e.amount.toString(),
  }));
}
