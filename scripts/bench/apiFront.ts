import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '../../contracts/devnet.js';
import type { Logger } from '../../internal/logger.js';
import { startBenchApi, type BenchApi } from './apiProcess.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type BenchApiFront = { url: string; pids: number[]; frontPid: number; close(): Promise<void> };

/**
 * `processes` API processes (startBenchApi) behind scripts/roundRobinFront.ts in a process of its
 * own, as nginx would stand in front of them (in the bench's process it would share an event loop
 * with the load generator). For capacity with 1 vs N processes (#34): compare runs that all go
 * through the front, since the front itself costs CPU on the same machine.
 */
export async function startBenchApiFront(
  processes: number,
  env: Record<string, string>,
  logger: Logger,
): Promise<BenchApiFront> {
  const apis: BenchApi[] = [];
  try {
    // One after the other: findFreePort would hand two parallel starts the same port.
    for (let i = 0; i < processes; i++) apis.push(await startBenchApi(env, logger));
    const port = await findFreePort({ from: 40500, to: 40999 });
    const front = spawn(process.execPath, ['--import', 'tsx', 'scripts/roundRobinFront.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '',
        FRONT_PORT: String(port),
        FRONT_UPSTREAMS: apis.map((a) => a.url).join(','),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    while (
      !(await fetch(`${url}/v4/health/live`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (front.exitCode !== null || Date.now() > deadline) throw new Error(`the front did not answer on ${url}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return {
      url,
      pids: apis.map((a) => a.pid),
      frontPid: front.pid!,
      close: async () => {
        front.kill('SIGTERM');
        await Promise.all(apis.map((a) => a.close()));
      },
    };
  } catch (error) {
    await Promise.all(apis.map((a) => a.close()));
    throw error;
  }
}
