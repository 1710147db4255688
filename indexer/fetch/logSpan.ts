/**
 * The block span of one chain's eth_getLogs requests during a job run. It starts at `initial` and
 * doubles after every answered request up to `max`, so a sparse chain reaches the configured range
 * in a few requests; once the node refuses a span as too large (block range, result count,
 * response size), the span halves below the refused one and stops growing for the run. A dense
 * range thus costs one refused request instead of a refused request at every halving level.
 */
export type LogSpan = {
  /** Blocks to ask for next. */
  current(): number;
  answered(): void;
  /** The node refused `span` blocks as too large. */
  refused(span: number): void;
};

export function createLogSpan({ max, initial = 100 }: { max: number; initial?: number }): LogSpan {
  let span = Math.max(1, Math.min(max, initial));
  let growing = true;
  return {
    current: () => span,
    answered: () => {
      if (growing) span = Math.min(max, span * 2);
    },
    refused: (refused) => {
      growing = false;
      span = Math.max(1, Math.floor(Math.min(span, refused) / 2));
    },
  };
}
