/**
 * Pure: which reward root the Distributor serves claims against (docs/contracts.md#dispute-period-and-the-live-root),
 * from the indexed roots. Mirrors `getMerkleRoot()`: the latest tree once its dispute period is over and no dispute is
 * open, otherwise the tree before it.
 */
import { compareLogPosition } from './logPosition.js';

/** What the rule needs of a `roots` row. */
export type RootEntry = { root: string; endOfDisputePeriod: number; blockNumber: number; logIndex: number; revoked: boolean };

export type LiveRootParams<R extends RootEntry> = {
  /** Roots of one chain, in any order. */
  roots: readonly R[];
  /** Unix seconds (a block time, or wall-clock time for the API). */
  now: number;
  /** True while a `Disputed` log has no `DisputeResolved` after it. */
  disputeOpen: boolean;
};

/**
 * The live root: the latest non-revoked root whose endOfDisputePeriod <= now with no open dispute;
 * otherwise the non-revoked root before it (live whatever its own end, as `lastTree` is).
 * @returns that root's entry, or null when there is none (no root yet, or the first one still pending).
 */
export function liveRoot<R extends RootEntry>({ roots, now, disputeOpen }: LiveRootParams<R>): R | null {
  const candidates = roots.filter((r) => !r.revoked).sort(compareLogPosition);
  const latest = candidates[candidates.length - 1];
  if (!latest) return null;
  if (!disputeOpen && latest.endOfDisputePeriod <= now) return latest;
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
