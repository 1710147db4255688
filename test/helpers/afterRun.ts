/**
 * Registers `fn` as a root-level mocha hook, run once every suite of the run is done (the calling module is
 * loaded by a test file). Not in a parallel worker (MOCHA_WORKER_ID): there a root hook would end with the
 * file that loaded the module first, not with the run; a worker's processes die with it, and what it leaves on
 * the shared services is removed after the run by test/helpers/parallelRun.ts.
 */
export function afterRun(fn: () => Promise<void>): void {
  if (process.env['MOCHA_WORKER_ID'] !== undefined) return;
  (globalThis as { after?: (hook: () => Promise<void>) => void }).after?.(fn);
}
