/** A task run at most once at a time: asked while running, it runs once more after (not once per ask). */
export type Coalesced = {
  /** Starts the task, or marks it to run again when it is running. */
  run(): void;
  /** Resolves when no run is in flight. */
  idle(): Promise<void>;
};

/**
 * Coalesces calls of `task` (which must not reject: it handles its own errors) while `keepGoing`
 * says so: wake-ups that arrive while it runs collapse into one more run.
 */
export function coalesced(task: () => Promise<void>, keepGoing: () => boolean = () => true): Coalesced {
  let running: Promise<void> | null = null;
  let again = false;
  return {
    run() {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          await task();
        } while (again && keepGoing());
      })().finally(() => (running = null));
    },
    idle: async () => {
      await running;
    },
  };
}
