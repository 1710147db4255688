/**
 * Pure: which reward root the Distributor serves claims against (docs/contracts.md#dispute-period-and-the-live-root), from the
 * indexed roots. Mirrors `getMerkleRoot()`: the latest tree once its dispute period is over and no
 * dispute is open, otherwise the tree before it. The period of the latest tree ends at its
 * TreeUpdated's `endOfDisputePeriod`, or, when a dispute on it was rejected, at the end the
 * DisputeResolved(false) recomputed from the resolution time (no TreeUpdated is emitted then).
 */
import { compareLogPosition } from './logPosition.js';

/** What the rule needs of a `roots` row. */
export type RootEntry = {
  root: string;
  endOfDisputePeriod: number;
  blockNumber: number;
  logIndex: number;
  revoked: boolean;
};

export type LiveRootParams<R extends RootEntry> = {
  /** Roots of one chain, in any order. */
  roots: readonly R[];
  /** Unix seconds: the chain's own time (a block timestamp), as the contract decides on `block.timestamp`. */
  now: number;
  /** True while a `Disputed` log has no `DisputeResolved` after it. */
  disputeOpen: boolean;
  /** DisputeResolved(false) logs with the end each one set (any order); only one after the latest root counts. */
  rejectedDisputes?: readonly RejectedDispute[];
};

/** A DisputeResolved(false) log and the `endOfDisputePeriod` the contract recomputed then. */
export type RejectedDispute = { blockNumber: number; logIndex: number; endOfDisputePeriod: number };

/**
 * Pure: when the dispute period of `latest` ends: its own end, unless a dispute on it was rejected
 * later (the last such rejection's recomputed end).
 */
export function effectiveEndOfDisputePeriod(
  latest: RootEntry,
  rejectedDisputes: readonly RejectedDispute[] = [],
): number {
  const after = rejectedDisputes.filter((d) => compareLogPosition(d, latest) > 0).sort(compareLogPosition);
  return after[after.length - 1]?.endOfDisputePeriod ?? latest.endOfDisputePeriod;
}

/**
 * The live root: the latest non-revoked root whose (effective) endOfDisputePeriod <= now with no open dispute;
 * otherwise the non-revoked root before it (live whatever its own end, as `lastTree` is).
 * @returns that root's entry, or null when there is none (no root yet, or the first one still pending).
 */
export function liveRoot<R extends RootEntry>({
  roots,
  now,
  disputeOpen,
  rejectedDisputes,
}: LiveRootParams<R>): R | null {
  const candidates = roots.filter((r) => !r.revoked).sort(compareLogPosition);
  const latest = candidates[candidates.length - 1];
  if (!latest) return null;
  if (!disputeOpen && effectiveEndOfDisputePeriod(latest, rejectedDisputes) <= now) return latest;
  return candidates[candidates.length - 2] ?? null;
}

export type DisputeEntry = { kind: 'revoked' | 'disputed' | 'dispute_resolved'; blockNumber: number; logIndex: number };

/**
 * Pure: whether a dispute is open after these events: the last Disputed / DisputeResolved log is a
 * Disputed one (the real Distributor refuses a second dispute while one is open).
 */
export function isDisputeOpen(events: readonly DisputeEntry[]): boolean {
  const disputes = events.filter((e) => e.kind !== 'revoked').sort(compareLogPosition);
  return disputes[disputes.length - 1]?.kind === 'disputed';
}
