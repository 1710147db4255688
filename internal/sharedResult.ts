/**
 * `compute` shared by every caller while it runs and for `ttlMs` after it resolved: concurrent
 * callers wait for the one computation in flight, later ones get its value until it is `ttlMs`
 * old. A rejection is not kept (the next caller computes again). The value is shared, so it must
 * not be mutated. `now` (milliseconds) is the clock the age is read on: injectable, so a test moves time
 * instead of waiting for it.
 */
export function sharedResult<T>(
  compute: () => Promise<T>,
  ttlMs: number,
  now: () => number = Date.now,
): () => Promise<T> {
  let current: { value: Promise<T>; until: number } | null = null;
  return () => {
    if (current && now() < current.until) return current.value;
    const entry = { value: compute(), until: Number.POSITIVE_INFINITY };
    current = entry;
    entry.value.then(
      () => {
        entry.until = now() + ttlMs;
      },
      () => {
        if (current === entry) current = null;
      },
    );
    return entry.value;
  };
}
