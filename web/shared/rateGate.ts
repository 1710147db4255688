/**
 * A request's hold on the page's budget: from its start until its answer (or abort), then one more
 * second. `end` undefined: still in flight.
 */
export type Slot = { end?: number };

/**
 * Pure: how long to wait before starting one more request, given the page's slots, so that no
 * one-second window of the API's clock can see more than `perSecond` of them arrive (the API limits
 * anonymous callers per second, RATE_LIMITS, 10/s by default). A request reaches the API somewhere
 * between its start and its answer, and the browser may hold a started request back (six connections
 * per host), so counting starts is not enough: a request counts while it is in flight and for a second
 * after its answer. Then, in any window [s, s+1), when the last of its arrivals started, every other one
 * had started and not been answered before s, so it was counted: at most `perSecond` arrive there.
 * `Infinity`: only an answer frees a slot.
 */
export function delayBeforeNext(slots: readonly Slot[], now: number, perSecond: number): number {
  const counted = slots.filter((s) => s.end === undefined || s.end > now - 1000);
  if (counted.length < perSecond) return 0;
  const ends = counted
    .map((s) => s.end)
    .filter((e): e is number => e !== undefined)
    .sort((a, b) => a - b);
  const freed = counted.length - perSecond; // this many must leave before one more may start
  return freed < ends.length ? ends[freed]! + 1000 - now : Number.POSITIVE_INFINITY;
}

/**
 * Pure: until when (ms) to hold new requests after an answer that says `remaining` requests are left
 * in the API's current window, which resets in `resetSeconds`, while `inFlight` requests already
 * sent will take their share of it; `undefined` when there is room. The server's count is the truth:
 * another tab of the same caller spends the same budget.
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

/** Called once the request was answered, failed or was aborted: its slot leaves the budget a second later. */
export type Release = () => void;

/**
 * `const release = await gate(signal)` before each request, `release()` once it is answered;
 * `gate.holdUntil(t)` starts nothing before time `t` (ms); `gate.inFlight()` counts the requests
 * started and not released.
 */
export type RateGate = ((signal?: AbortSignal) => Promise<Release>) & {
  holdUntil(t: number): void;
  inFlight(): number;
};

const noop: Release = () => {};

/**
 * A page-wide gate (delayBeforeNext): requests start in the order they asked, at most `perSecond`
 * in flight or answered within the last second, and none before a `holdUntil`. A request whose
 * signal was aborted while it waited takes no slot (it is not sent), so superseded requests never
 * hold back the current ones.
 */
export function createRateGate(perSecond: number, now: () => number = () => Date.now()): RateGate {
  let slots: Slot[] = [];
  let held = 0;
  let queue: Promise<unknown> = Promise.resolve();
  /** Wakes the request at the head of the queue when a slot is released or its signal aborts. */
  let wake: () => void = noop;
  const waitFor = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        wake = noop;
        resolve();
      };
      const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
      wake = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  const gate = (signal?: AbortSignal) => {
    const turn = queue.then(async (): Promise<Release> => {
      for (;;) {
        if (signal?.aborted) return noop;
        const t = now();
        slots = slots.filter((s) => s.end === undefined || s.end > t - 1000);
        const wait = Math.max(delayBeforeNext(slots, t, perSecond), held - t);
        if (wait <= 0) break;
        await waitFor(wait, signal);
      }
      const slot: Slot = {};
      slots.push(slot);
      return () => {
        if (slot.end !== undefined) return;
        slot.end = now();
        wake();
      };
    });
    queue = turn;
    return turn;
  };
  return Object.assign(gate, {
    holdUntil(t: number) {
      held = Math.max(held, t);
    },
    inFlight: () => slots.filter((s) => s.end === undefined).length,
  });
}
