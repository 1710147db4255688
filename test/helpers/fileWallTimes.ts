/**
 * Root hooks of a parallel worker (test/.mocharc.parallel.cjs): in parallel mode mocha runs root hooks once per
 * file, so the time from the first to the last is the file's wall time, hooks included (its devnet resets, demo
 * clones, processes started and stopped). Each file appends one JSON line { file, ms } to TEST_FILE_TIMES (set by
 * parallelRun.ts before the workers fork); the reporter lists the slowest from it.
 */
import { appendFileSync } from 'node:fs';

let started = 0;

export const mochaHooks = {
  beforeAll(): void {
    started = performance.now();
  },
  afterAll(this: Mocha.Context): void {
    const path = process.env['TEST_FILE_TIMES'];
    const file = this.test?.parent?.suites.find((s) => s.file)?.file;
    if (!path || !file) return;
    appendFileSync(path, `${JSON.stringify({ file, ms: performance.now() - started })}\n`);
  },
};
