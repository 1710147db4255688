export type EventuallyOptions = {
  /** Give up after this long; default 5 000 ms. */
  timeoutMs?: number;
  /** Pause between attempts; default 50 ms. */
  intervalMs?: number;
  /** What is awaited, for the timeout message. */
  what?: string;
};

/**
 * The one way a test waits for a condition: calls `fn` until it neither returns `false` nor throws (a
 * predicate that now holds, or assertions that now pass), every `intervalMs`, for at most `timeoutMs`,
 * and returns what `fn` returned. On timeout it throws naming `what` and the last failure, so a failing
 * test says what never happened.
 */
export async function eventually<T>(
  fn: () => T | Promise<T>,
  { timeoutMs = 5_000, intervalMs = 50, what = 'the condition' }: EventuallyOptions = {},
): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: unknown;
    try {
      const value = await fn();
      if (value !== false) return value as Exclude<T, false>;
      last = 'still false';
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const reason = last instanceof Error ? last.message : String(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}: ${reason}`, { cause: last });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
