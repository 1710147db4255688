/**
 * The real scheduler (`jobs/scheduler.ts`) in a child process of a benchmark, as operators run it, with
 * the event-loop probe preloaded (scripts/bench/eventLoopProbe.ts): its pid is the job process whose
 * memory and event loop the benchmark reads (scripts/bench/rewards.ts).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EVENT_LOOP_PROBE, eventLoopClient, type EventLoopClient } from './eventLoopClient.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type SchedulerProcess = {
  pid: number;
  eventLoop: EventLoopClient;
  /** The last lines it wrote to stderr (its warnings and errors), for a failure message. */
  tail(): string;
  /** SIGTERM (the scheduler stops its jobs at a step boundary), SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
};

/**
 * Spawns `node --import tsx --import <probe> jobs/scheduler.ts` with `env` (plus PATH and HOME) and the
 * scheduler's stderr echoed to ours when `echo`.
 * @throws from `stop` never; a scheduler that exits early shows in the benchmark's waits and in `tail`.
 */
export function startSchedulerProcess(env: Record<string, string>, echo = false): SchedulerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', EVENT_LOOP_PROBE, 'jobs/scheduler.ts'], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    if (echo) process.stderr.write(d);
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    pid: child.pid!,
    eventLoop: eventLoopClient(child),
    tail: () => stderr.split('\n').slice(-8).join('\n'),
    async stop(graceMs = 30_000) {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
