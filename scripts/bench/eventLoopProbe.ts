/**
 * Preloaded into a benchmark's child process (`node --import tsx --import ./scripts/bench/eventLoopProbe.ts
 * <main>`, spawned with an IPC channel; scripts/bench/eventLoopClient.ts is the other end): the process's
 * own event-loop delay, from perf_hooks.monitorEventLoopDelay (a timer every RESOLUTION_MS whose lateness
 * is recorded, so the longest block shows as the maximum). The parent resets it at the start of a window
 * and reads it at the end. Without an IPC channel it does nothing.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  process.on('message', (message: { probe?: string; op?: string; id?: number }) => {
    if (message?.probe !== 'event-loop') return;
    if (message.op === 'reset') histogram.reset();
    const ms = (ns: number) => (histogram.count ? ns / 1e6 : 0);
    process.send?.({
      probe: 'event-loop',
      id: message.id,
      maxMs: ms(histogram.max),
      p99Ms: ms(histogram.percentile(99)),
      meanMs: ms(histogram.mean),
      samples: histogram.count,
    });
  });
  // The channel alone must not keep the process alive.
  process.channel?.unref();
}
