/**
 * Pure: viem-decoded Distributor logs → typed domain events (docs/contracts.md#distributor-events). Hashes and
 * addresses come out lower-case, as they are stored.
 */
import type { Hex } from 'viem';
import type { LogPosition } from '../../domain/logPosition.js';
import { DecodeError } from './campaignEvents.js';

export type TreeUpdatedEvent = LogPosition & {
  kind: 'tree_updated';
  root: Hex;
  ipfsHash: Hex;
  endOfDisputePeriod: number;
};
export type RevokedEvent = LogPosition & { kind: 'revoked' };
export type DisputedEvent = LogPosition & { kind: 'disputed'; reason: string };
export type DisputeResolvedEvent = LogPosition & { kind: 'dispute_resolved'; valid: boolean };
export type RootLifecycleEvent = TreeUpdatedEvent | RevokedEvent | DisputedEvent | DisputeResolvedEvent;

/** A Claimed log: `amount` is the delta paid by that call, never the cumulative total. */
export type ClaimedEvent = LogPosition & { recipient: Hex; token: Hex; amount: bigint };

type RawPosition = {
  blockNumber: bigint | null;
  blockHash: Hex | null;
  transactionHash: Hex | null;
  logIndex: number | null;
};

export type RootLifecycleLog = RawPosition &
  (
    | { eventName: 'TreeUpdated'; args: { merkleRoot: Hex; ipfsHash: Hex; endOfDisputePeriod: number } }
    | { eventName: 'Revoked'; args: unknown }
    | { eventName: 'Disputed'; args: { reason: string } }
    | { eventName: 'DisputeResolved'; args: { valid: boolean } }
  );

export type ClaimedLog = RawPosition & { args: { user: Hex; token: Hex; amount: bigint } };

function positionOf(chainId: number, eventName: string, log: RawPosition): LogPosition {
  if (log.blockNumber === null || !log.blockHash || !log.transactionHash || log.logIndex === null) {
    throw new DecodeError(`${eventName} log without block position on chain ${chainId}`);
  }
  return {
    chainId,
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash.toLowerCase() as Hex,
    txHash: log.transactionHash.toLowerCase() as Hex,
    logIndex: log.logIndex,
  };
}

/** Pure: one TreeUpdated / Revoked / Disputed / DisputeResolved log → its domain event. Pending logs are refused. */
export function decodeRootLifecycleLog(chainId: number, log: RootLifecycleLog): RootLifecycleEvent {
  const position = positionOf(chainId, log.eventName, log);
  switch (log.eventName) {
    case 'TreeUpdated':
      return {
        ...position,
        kind: 'tree_updated',
        root: log.args.merkleRoot.toLowerCase() as Hex,
        ipfsHash: log.args.ipfsHash.toLowerCase() as Hex,
        endOfDisputePeriod: Number(log.args.endOfDisputePeriod),
      };
    case 'Revoked':
      return { ...position, kind: 'revoked' };
    case 'Disputed':
      return { ...position, kind: 'disputed', reason: log.args.reason };
    case 'DisputeResolved':
      return { ...position, kind: 'dispute_resolved', valid: log.args.valid };
  }
}

/** Pure: a Claimed log → ClaimedEvent. */
export function decodeClaimedLog(chainId: number, log: ClaimedLog): ClaimedEvent {
  return {
    ...positionOf(chainId, 'Claimed', log),
    recipient: log.args.user.toLowerCase() as Hex,
    token: log.args.token.toLowerCase() as Hex,
    amount: log.args.amount,
  };
}

/**
 * Pure: block number → block hash of the blocks these events were read from, for
 * `assertCanonical` (every log of one block carries the same hash).
 */
export function blockHashesOf(events: readonly Pick<LogPosition, 'blockNumber' | 'blockHash'>[]): Map<number, string> {
  return new Map(events.map((e) => [e.blockNumber, e.blockHash]));
}
