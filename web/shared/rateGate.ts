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
 * Pure: until when (ms) to hold new requests after an answer that says `remaining` requests are left
 * in the API's current window, which resets in `resetSeconds`, while `inFlight` requests already
 * sent will take their share of it; `undefined` when there is room. The server's count is the truth:
 * requests the browser queued and sent in a bunch reach it in one window however they were spaced.
 */
export function holdAfterAnswer(
  remaining: number,
  resetSeconds: number,
  inFlight: number,
  now: number,
): number | undefined {
  if (!Number.isFinite(remaining) || !Number.isFinite(resetSeconds) || remaining > inFlight) return undefined;
  return now + Math.max(0, resetSeconds) * 1000;
}

/** `await gate(signal)` before each request; `gate.holdUntil(t)` starts nothing before time `t` (ms). */
export type RateGate = ((signal?: AbortSignal) => Promise<void>) & { holdUntil(t: number): void };

/**
 * A page-wide gate: `await gate(signal)` before each request keeps the page under `perSecond`
 * requests per second, and after `holdUntil(t)` starts none before `t`. A request whose signal was
 * aborted while it waited takes no slot (it is not sent), so superseded requests never hold back the
 * current ones.
 */
export function createRateGate(perSecond: number, now: () => number = () => Date.now()): RateGate {
  let starts: number[] = [];
  let held = 0;
  let queue: Promise<void> = Promise.resolve();
  const gate = (signal?: AbortSignal) => {
    const turn = queue.then(async () => {
      if (signal?.aborted) return;
      const wait = Math.max(delayBeforeNext(starts, now(), perSecond), held - now());
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (signal?.aborted) return;
      const t = now();
      starts = [...starts.filter((s) => s > t - 1000), t];
    });
    queue = turn;
    return turn;
  };
  return Object.assign(gate, {
    holdUntil(t: number) {
      held = Math.max(held, t);
    },
  });
}
