/** Something a waiting worker may want to look at again: a count that every signal increases. */
export type Wakeup = {
  /** How many signals so far: read it before looking for work, wait `after` it when none was found. */
  readonly generation: number;
  /** Signals every waiter (and any later `after` of an older generation returns at once). */
  signal(): void;
  /** Resolves on a signal after `seen`, after `ms`, or on `abort`, whichever comes first. */
  after(seen: number, ms: number, abort: AbortSignal): Promise<void>;
};

/**
 * A wake-up with no lost signal: a worker reads `generation`, finds no work, then waits `after` that
 * generation, so a signal given between the two makes the wait return at once.
 */
export function createWakeup(): Wakeup {
  let generation = 0;
  const waiters = new Set<() => void>();
  return {
    get generation() {
      return generation;
    },
    signal() {
      generation += 1;
      for (const wake of [...waiters]) wake();
    },
    after(seen, ms, abort) {
      if (generation !== seen || abort.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          abort.removeEventListener('abort', wake);
          waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, ms);
        abort.addEventListener('abort', wake, { once: true });
        waiters.add(wake);
      });
    },
  };
}
