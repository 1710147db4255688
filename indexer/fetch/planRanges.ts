export type BlockRange = { from: number; to: number };

export type PlanRangesParams = {
  /** Last block already processed, or null when the job never ran on this chain. */
  cursor: number | null;
  startBlock: number;
  head: number;
  confirmations: number;
  maxRange: number;
  /** Stop planning after this many ranges (one job run handles a bounded amount of work). */
  maxRanges?: number;
};

/**
 * Pure: the next inclusive block ranges to process, chunked, up to head − confirmations.
 * @returns an empty array when the job is caught up.
 */
export function planRanges({
  cursor,
  startBlock,
  head,
  confirmations,
  maxRange,
  maxRanges = Infinity,
}: PlanRangesParams): BlockRange[] {
  const from = cursor === null ? startBlock : Math.max(cursor + 1, startBlock);
  const safeHead = head - confirmations;
  const ranges: BlockRange[] = [];
  for (let start = from; start <= safeHead && ranges.length < maxRanges; start += maxRange) {
    ranges.push({ from: start, to: Math.min(start + maxRange - 1, safeHead) });
  }
  return ranges;
}
