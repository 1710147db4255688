/**
 * Preloaded into a benchmark's child process (`node --import tsx --import ./scripts/bench/eventLoopProbe.ts
 * <main>`, spawned with an IPC channel; scripts/bench/eventLoopClient.ts is the other end): the process's
 * own event-loop delay, from perf_hooks.monitorEventLoopDelay (a timer every RESOLUTION_MS whose lateness
 * is recorded, so the longest block shows as the maximum). The parent resets it at the start of a window
 * and reads it at the end. Without an IPC channel it does nothing. A one-shot process (jobs/cli.ts, which ends
 * with process.exit) given EVENT_LOOP_PROBE_FILE writes its whole life's figures there as JSON when it exits,
 * with its own CPU seconds (a process gone has no /proc entry to read them from).
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 10;

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const ms = (ns: number) => (histogram.count ? ns / 1e6 : 0);
  const figures = () => ({
    maxMs: ms(histogram.max),
    p99Ms: ms(histogram.percentile(99)),
    meanMs: ms(histogram.mean),
    samples: histogram.count,
  });
  process.on('message', (message: { probe?: string; op?: string; id?: number }) => {
    if (message?.probe !== 'event-loop') return;
    if (message.op === 'reset') histogram.reset();
    process.send?.({ probe: 'event-loop', id: message.id, ...figures() });
  });
  const file = process.env['EVENT_LOOP_PROBE_FILE'];
  const cpuSeconds = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  if (file) process.once('exit', () => writeFileSync(file, JSON.stringify({ ...figures(), cpuSeconds: cpuSeconds() })));
  // The channel alone must not keep the process alive.
  process.channel?.unref();
}
