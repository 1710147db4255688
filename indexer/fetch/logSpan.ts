/**
 * The block span of one chain's eth_getLogs requests during a job run. It starts at `initial` and
 * doubles after every answered request up to `max`, so a sparse chain reaches the configured range
 * in a few requests; once the node refuses a span as too large (block range, result count,
 * response size), the span halves below the refused one and stops growing for the run. A dense
 * range thus costs one refused request instead of a refused request at every halving level.
 * With `targetLogs`, the span also follows the chain's density: it grows only while an answer held
 * under half the target, and shrinks in proportion after one that held more than twice the target,
 * so a batch (and the memory it takes) stays near the target however dense the blocks are.
 */
export type LogSpan = {
  /** Blocks to ask for next. */
  current(): number;
  /** The node answered the current span with `logs` logs. */
  answered(logs?: number): void;
  /** The node refused `span` blocks as too large. */
  refused(span: number): void;
};

export function createLogSpan({
  max,
  initial = 100,
  targetLogs,
}: {
  max: number;
  initial?: number;
  targetLogs?: number;
}): LogSpan {
  let span = Math.max(1, Math.min(max, initial));
  let growing = true;
  return {
    current: () => span,
    answered: (logs) => {
      if (targetLogs !== undefined && logs !== undefined && logs > 2 * targetLogs) {
        span = Math.max(1, Math.floor((span * targetLogs) / logs));
        return;
      }
      const sparse = targetLogs === undefined || logs === undefined || logs < targetLogs / 2;
      if (growing && sparse) span = Math.min(max, span * 2);
    },
    refused: (refused) => {
      growing = false;
      span = Math.max(1, Math.floor(Math.min(span, refused) / 2));
    },
  };
}
