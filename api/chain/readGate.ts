import { BaseError } from '../../internal/errors.js';
/** A chain's reads are refused: `concurrency` run and `queue` wait already. */
export class ChainReadBusyError extends BaseError {
  override readonly retryable = true;
  override name = 'ChainReadBusyError';
}

/** The caller gave up (its deadline passed) while waiting for a turn. */
export class ChainReadAbandonedError extends BaseError {
  override readonly retryable = true;
  override name = 'ChainReadAbandonedError';
}

export type ChainReadGate = {
  /**
   * Waits for a turn: resolves with its release (call it once the read settled), throws
   * ChainReadBusyError at once when the queue is full, ChainReadAbandonedError when `signal` aborts first.
   */
  acquire(signal?: AbortSignal): Promise<() => void>;
  /** Reads holding a turn. */
  running(): number;
  /** Reads waiting for one. */
  waiting(): number;
};

export type CreateChainReadGateParams = { concurrency: number; queue: number };

/**
 * A semaphore with a bounded queue (issue #43 F1): at most `concurrency` holders, at most `queue`
 * waiters served first come first served; any further caller is refused at once, so a burst of
 * requests never piles work or memory up behind a slow node. No I/O: unit-tested alone.
 */
export function createChainReadGate({ concurrency, queue }: CreateChainReadGateParams): ChainReadGate {
  let held = 0;
  // Invariant: waiters is non-empty only while held === concurrency (a release hands its turn over).
  const waiters: { grant: () => void }[] = [];
  const release = () => {
    const next = waiters.shift();
    if (next) next.grant();
    else held -= 1;
  };
  const releaserOf = () => {
    let done = false;
    return () => {
      if (!done) (done = true), release();
    };
  };
  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(new ChainReadAbandonedError('deadline passed before the read'));
      if (held < concurrency) {
        held += 1;
        return Promise.resolve(releaserOf());
      }
      if (waiters.length >= queue)
        return Promise.reject(new ChainReadBusyError(`${held} reads running and ${waiters.length} waiting`));
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const at = waiters.indexOf(waiter);
          if (at >= 0) waiters.splice(at, 1);
          reject(new ChainReadAbandonedError('deadline passed while waiting for a turn'));
        };
        const waiter = {
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(releaserOf());
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
      });
    },
    running: () => held,
    waiting: () => waiters.length,
  };
}
