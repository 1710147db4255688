import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../internal/config.js';
import { childProcessEnv } from './testConfig.js';
import { nodeArgs } from './compiledSources.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type SchedulerProcess = { proc: ChildProcess; output: () => string };

/** JOB_<NAME>_CRON for each job: every second. */
export const everySecond = (jobs: readonly string[]) =>
  Object.fromEntries(jobs.map((job) => [`JOB_${job.toUpperCase().replace(/-/g, '_')}_CRON`, '* * * * * *']));

/**
 * Starts `jobs/scheduler.ts` as its own process on the suite's database, indices and chains;
 * resolves once it has started a job (its last 20 kB of output are kept for failure messages).
 */
export async function startSchedulerProcess(config: Config, env: Record<string, string>): Promise<SchedulerProcess> {
  const args = await nodeArgs('jobs/scheduler.ts');
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, {
      cwd: ROOT,
      env: childProcessEnv(config, { LOG_LEVEL: 'debug', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let started = false;
    const onData = (d: Buffer) => {
      output = (output + d.toString()).slice(-20_000);
      if (!started && output.includes('"job started"')) {
        started = true;
        resolve({ proc, output: () => output });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once(
      'exit',
      (code, signal) =>
        started ||
        reject(new Error(`scheduler exited (${code ?? signal}) before running a job: ${output.slice(-800)}`)),
    );
  });
}
