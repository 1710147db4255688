/**
 * A unit run that lasted longer than this (or failed) marks its chain slow: an RPC node answering
 * in seconds, or timing out. Healthy units of a chain at the head take tens of milliseconds.
 */
export const SLOW_UNIT_MS = 1_000;

export type SlowChainGuard = {
  /** A unit of `chainId` ended after `durationMs`, succeeded or not (undefined: a job that is not per chain). */
  ended(chainId: number | undefined, durationMs: number, ok: boolean): void;
  /** True when a unit of `chainId` must wait: the chain is slow and already runs `running` units, its share of the slots. */
  mayNotStart(chainId: number, running: number): boolean;
};

export type SlowChainGuardParams = {
  /** The process's slots (SCHEDULER_CONCURRENCY) and chains: a slow chain runs at most slots ÷ chains units (at least one). */
  slots: number;
  chains: number;
  slowUnitMs?: number;
};

/**
 * Per process: a slow chain (its last unit run took SLOW_UNIT_MS or more, or failed) runs at most
 * its fair share of the slots (⌊slots ÷ chains⌋, at least one), so units waiting on its node never
 * take the slots the other chains need; a fast run lifts the mark. A process with one chain, and
 * chains that answer promptly, run their units together as before. The scheduler says how many
 * units of the chain run (it keeps the runs).
 */
export function createSlowChainGuard({
  slots,
  chains,
  slowUnitMs = SLOW_UNIT_MS,
}: SlowChainGuardParams): SlowChainGuard {
  const share = Math.max(1, Math.floor(slots / Math.max(1, chains)));
  const slow = new Set<number>();
  return {
    ended(chainId, durationMs, ok) {
      if (chainId === undefined) return;
      if (!ok || durationMs >= slowUnitMs) slow.add(chainId);
      else slow.delete(chainId);
    },
    mayNotStart(chainId, running) {
      return slow.has(chainId) && running >= share;
    },
  };
}
