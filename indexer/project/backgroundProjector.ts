import { projectOutbox, type ProjectOutboxParams } from './projectOutbox.js';

export type BackgroundProjector = {
  /** Says new outbox entries were committed: a drain starts now, or runs again after the one under way. */
  poke(): void;
  /** Waits for the drains asked for so far, runs a last one (every entity), and returns what all of them projected. */
  finish(): Promise<{ published: number; deleted: number }>;
  /** Waits for a drain under way and ignores its outcome (after a failure of the caller). */
  abandon(): Promise<void>;
};

/**
 * Projects the outbox while its writer goes on: the pipeline's last stage overlapping the others
 * (the next range is fetched, decoded and written while the previous one is published): campaign
 * documents meanwhile, their opportunities once at the end (`finish`). At most
 * one drain runs at a time; a poke during a drain asks for one more when it ends, so entries
 * committed meanwhile are never left behind. The drains are ordinary `projectOutbox` calls (entry
 * and document locks, one transaction per batch), so they may run beside any other projector.
 */
export function startBackgroundProjector(params: Omit<ProjectOutboxParams, 'maxBatches'>): BackgroundProjector {
  let running: Promise<void> | null = null;
  let again = false;
  let failure: unknown;
  const totals = { published: 0, deleted: 0 };

  const drain = async () => {
    do {
      again = false;
      // Campaign documents only while the writer goes on: each batch it writes queues the
      // opportunities again, and an opportunity's document summarizes all its campaigns (PostgreSQL
      // aggregates every row of the opportunity each time), so they are built once, by the last drain.
      const done = await projectOutbox({ ...params, entity: 'campaign' });
      totals.published += done.published;
      totals.deleted += done.deleted;
    } while (again && !params.signal?.aborted);
  };
  const start = () => {
    running = drain()
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => {
        running = null;
      });
  };

  return {
    poke() {
      if (failure !== undefined) return;
      if (running) again = true;
      else start();
    },
    async finish() {
      while (running) await running;
      if (failure !== undefined) throw failure;
      const last = await projectOutbox(params);
      return { published: totals.published + last.published, deleted: totals.deleted + last.deleted };
    },
    async abandon() {
      while (running) await running;
    },
  };
}
