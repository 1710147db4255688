import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startApiServer } from '../../api/server.js';
import { findFreePort } from '../../contracts/devnet.js';
import { loadConfig } from '../../internal/config.js';
import type { Logger } from '../../internal/logger.js';
import { EVENT_LOOP_PROBE, eventLoopClient, type EventLoopClient } from './eventLoopClient.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type BenchApi = {
  url: string;
  mode: 'process' | 'in-bench' /** The process serving the API (the bench's own in-bench). */;
  pid: number;
  close(): Promise<void>;
  /** With `probeEventLoop`, in process mode: the API process's own event-loop delay (scripts/bench/eventLoopProbe.ts). */
  eventLoop?: EventLoopClient;
};

export type StartBenchApiOptions = { probeEventLoop?: boolean };

/** Extra node options for the API process, e.g. BENCH_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it. */
const nodeArgs = () => (process.env['BENCH_API_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

/**
 * The API under benchmark. By default in its own process (`node --import tsx api/server.ts`: one
 * process, so its pid is the server's for RSS figures), as it runs in
 * production: in the bench's own process its work would share one event loop with the load
 * generator and the raw Elasticsearch client it is compared with. BENCH_API_PROCESS=same keeps it
 * in-process (the earlier measurements).
 */
export async function startBenchApi(
  env: Record<string, string>,
  logger: Logger,
  { probeEventLoop = false }: StartBenchApiOptions = {},
): Promise<BenchApi> {
  if (process.env['BENCH_API_PROCESS'] === 'same') {
    const api = await startApiServer({ config: loadConfig({ ...env, HOST: '127.0.0.1', PORT: '0' }), logger });
    return { url: api.url, mode: 'in-bench', pid: process.pid, close: () => api.close() };
  }
  const port = await findFreePort({ from: 41000, to: 41999 });
  const probe = probeEventLoop ? ['--import', EVENT_LOOP_PROBE] : [];
  const child = spawn(process.execPath, [...nodeArgs(), '--import', 'tsx', ...probe, 'api/server.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    stdio: ['ignore', 'ignore', 'inherit', ...(probeEventLoop ? (['ipc'] as const) : [])],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`bench API process exited with ${code} before answering`))),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await Promise.race([
      fetch(`${url}/v4/chains`).then(
        (r) => r.ok,
        () => false,
      ),
      exited,
    ]);
    if (up) break;
    if (Date.now() > deadline) throw new Error(`bench API process did not answer on ${url} within 60 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  exited.catch(() => {});
  return {
    url,
    mode: 'process',
    pid: child.pid!,
    ...(probeEventLoop ? { eventLoop: eventLoopClient(child) } : {}),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
