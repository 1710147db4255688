/**
 * The parent's end of scripts/bench/eventLoopProbe.ts: resets and reads a child's event-loop delay
 * histogram over its IPC channel.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** `--import` this into a child (with tsx first) to measure its event loop. */
export const EVENT_LOOP_PROBE = fileURLToPath(new URL('./eventLoopProbe.ts', import.meta.url));

/** The delay the child's event loop showed since the last reset: the longest (≈ its longest block), p99, mean, in ms. */
export type EventLoopDelay = { maxMs: number; p99Ms: number; meanMs: number; samples: number };

export type EventLoopClient = {
  /** Starts a new window (the answer is the window just closed). */
  reset(): Promise<EventLoopDelay>;
  read(): Promise<EventLoopDelay>;
};

/** A client over `child`'s IPC channel (spawned with 'ipc' in its stdio and EVENT_LOOP_PROBE imported). */
export function eventLoopClient(child: ChildProcess, timeoutMs = 300_000): EventLoopClient {
  let next = 0;
  const ask = (op: 'reset' | 'read') =>
    new Promise<EventLoopDelay>((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        reject(new Error(`event-loop probe of pid ${child.pid}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (message: EventLoopDelay & { probe?: string; id?: number }) => {
        if (message?.probe !== 'event-loop' || message.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve({ maxMs: message.maxMs, p99Ms: message.p99Ms, meanMs: message.meanMs, samples: message.samples });
      };
      child.on('message', onMessage);
      if (!child.send) reject(new Error(`pid ${child.pid} has no IPC channel`));
      else child.send({ probe: 'event-loop', op, id });
    });
  return { reset: () => ask('reset'), read: () => ask('read') };
}
