/**
 * Pure: how long to wait before starting one more request so that at most `perSecond` start in any
 * one-second window, given the start times (ms) of earlier requests. The API limits anonymous
 * callers per second (RATE_LIMITS, 10/s by default); an explorer view needs two calls, so the gate
 * only holds back bursts (fast typing, many detail charts), never a single view.
 */
export function delayBeforeNext(starts: readonly number[], now: number, perSecond: number): number {
  const recent = starts.filter((t) => t > now - 1000);
  if (recent.length < perSecond) return 0;
  return recent.sort((a, b) => a - b)[recent.length - perSecond]! + 1000 - now;
}

/**
 * A page-wide gate: `await gate(signal)` before each request keeps the page under `perSecond`
 * requests per second. A request whose signal was aborted while it waited takes no slot (it is
 * not sent), so superseded requests never hold back the current ones.
 */
export function createRateGate(
  perSecond: number,
  now: () => number = () => Date.now(),
): (signal?: AbortSignal) => Promise<void> {
  let starts: number[] = [];
  let queue: Promise<void> = Promise.resolve();
  return (signal) => {
    const turn = queue.then(async () => {
      if (signal?.aborted) return;
      const wait = delayBeforeNext(starts, now(), perSecond);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (signal?.aborted) return;
      const t = now();
      starts = [...starts.filter((s) => s > t - 1000), t];
    });
    queue = turn;
    return turn;
  };
}
