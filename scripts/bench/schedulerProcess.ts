/**
 * The real scheduler (`jobs/scheduler.ts`) in a child process of a benchmark, as operators run it, with
 * the event-loop probe preloaded (scripts/bench/eventLoopProbe.ts): its pid is the job process whose
 * memory and event loop the benchmark reads (scripts/bench/rewards.ts).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EVENT_LOOP_PROBE, eventLoopClient, type EventLoopClient } from './eventLoopClient.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A log line of the scheduler that timed a step (it has a numeric `ms`), e.g. a phase of a reward tree. */
export type TimedLogLine = { msg: string; phase?: string; ms: number; chainId?: number; time: string };

export type SchedulerProcess = {
  pid: number;
  /** How many timed lines were logged so far: pass it to `timedSince`. */
  mark(): number;
  /** The timed lines logged since `mark` (only when started with `timings`; else none). */
  timedSince(mark: number): TimedLogLine[];
  eventLoop: EventLoopClient;
  /** The last lines it wrote to stderr (its warnings and errors), for a failure message. */
  tail(): string;
  /** SIGTERM (the scheduler stops its jobs at a step boundary), SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
  /** Its exit code once it exited on its own or was stopped (null when killed by a signal). */
  exited: Promise<number | null>;
};

/**
 * Spawns `node --import tsx --import <probe> jobs/scheduler.ts` with `env` (plus PATH and HOME) and the
 * scheduler's stderr echoed to ours when `echo`; with `timings`, its stdout (JSON log lines: give it
 * LOG_LEVEL=info) is read for the lines that time a step (`timedSince`).
 * @throws from `stop` never; a scheduler that exits early shows in the benchmark's waits and in `tail`.
 */
export function startSchedulerProcess(env: Record<string, string>, echo = false, timings = false): SchedulerProcess {
  return startJobProcess(['jobs/scheduler.ts'], env, echo, timings);
}

/** The operators' one-shot entry point, `npm run jobs:run -- all` (jobs/cli.ts run all), spawned like the scheduler. */
export function startRunAllProcess(env: Record<string, string>, echo = false, timings = false): SchedulerProcess {
  return startJobProcess(['jobs/cli.ts', 'run', 'all'], env, echo, timings);
}

function startJobProcess(
  argv: string[],
  env: Record<string, string>,
  echo: boolean,
  timings: boolean,
): SchedulerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', EVENT_LOOP_PROBE, ...argv], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', timings ? 'pipe' : 'ignore', 'pipe', 'ipc'],
  });
  const timed: TimedLogLine[] = [];
  if (timings)
    readLines(child.stdout!, (line) => {
      const record = timedLine(line);
      if (record) timed.push(record);
    });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    if (echo) process.stderr.write(d);
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    pid: child.pid!,
    mark: () => timed.length,
    timedSince: (mark) => timed.slice(mark),
    eventLoop: eventLoopClient(child),
    tail: () => stderr.split('\n').slice(-8).join('\n'),
    exited,
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

/** Calls `onLine` with each complete line of `stream`. */
function readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = '';
  stream.on('data', (d: Buffer) => {
    const lines = (rest + d.toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}

/** Pure: a JSON log line with a numeric `ms` as a TimedLogLine, else null. */
export function timedLine(line: string): TimedLogLine | null {
  if (!line.startsWith('{') || !line.includes('"ms":')) return null;
  try {
    const r = JSON.parse(line) as Record<string, unknown>;
    if (typeof r['ms'] !== 'number' || typeof r['msg'] !== 'string') return null;
    return {
      msg: r['msg'],
      ms: r['ms'],
      time: String(r['time'] ?? ''),
      ...(typeof r['phase'] === 'string' ? { phase: r['phase'] } : {}),
      ...(typeof r['chain_id'] === 'number' ? { chainId: r['chain_id'] } : {}),
    };
  } catch {
    return null;
  }
}
