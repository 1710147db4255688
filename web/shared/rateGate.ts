/**
 * Pure: how long to wait before starting one more request so that at most `perSecond` start in any
 * one-second window, given the start times (ms) of earlier requests. The API limits anonymous
 * callers per second (RATE_LIMITS, 10/s by default), and one explorer view needs about a dozen calls.
 */
export function delayBeforeNext(starts: readonly number[], now: number, perSecond: number): number {
  const recent = starts.filter((t) => t > now - 1000);
  if (recent.length < perSecond) return 0;
  return recent.sort((a, b) => a - b)[recent.length - perSecond]! + 1000 - now;
}

/** A page-wide gate: `await gate()` before each request keeps the page under `perSecond` requests per second. */
export function createRateGate(perSecond: number, now: () => number = () => Date.now()): () => Promise<void> {
  let starts: number[] = [];
  let queue: Promise<void> = Promise.resolve();
  return () => {
    const turn = queue.then(async () => {
      const wait = delayBeforeNext(starts, now(), perSecond);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t = now();
      starts = [...starts.filter((s) => s > t - 1000), t];
    });
    queue = turn;
    return turn;
  };
}
