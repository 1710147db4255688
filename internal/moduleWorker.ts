import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module at `moduleUrl` (a sibling module's URL as `new URL('./x.js',
 * import.meta.url)` names it). Built, that is the compiled JavaScript; from TypeScript sources
 * (`.ts`), the thread first registers tsx through internal/tsxWorker.mjs, since loaders do not reach
 * worker threads in Node 20. The process's own `--import` modules (a probe, a loader) are not
 * loaded into the thread (`execArgv` empty unless given): they may need what the thread lacks.
 */
export function startModuleWorker(moduleUrl: URL, options: WorkerOptions = {}): Worker {
  const base = { execArgv: [], ...options };
  if (!moduleUrl.pathname.endsWith('.ts')) return new Worker(moduleUrl, base);
  return new Worker(new URL('./tsxWorker.mjs', import.meta.url), {
    ...base,
    env: { ...process.env, MODULE_WORKER_URL: moduleUrl.href },
  });
}
