import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running the module at `moduleUrl` (a sibling module's URL as `new URL('./x.js',
 * import.meta.url)` names it). Built, that is the compiled JavaScript; from TypeScript sources
 * (`.ts`), the thread first registers tsx through internal/tsxWorker.mjs, since loaders do not reach
 * worker threads in Node 20.
 */
export function startModuleWorker(moduleUrl: URL, options: WorkerOptions = {}): Worker {
  if (!moduleUrl.pathname.endsWith('.ts')) return new Worker(moduleUrl, options);
  return new Worker(new URL('./tsxWorker.mjs', import.meta.url), {
    ...options,
    env: { ...process.env, MODULE_WORKER_URL: moduleUrl.href },
  });
}
