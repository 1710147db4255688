/**
 * The production sources compiled to JavaScript once per test run, for the processes tests start (the
 * CLI, the scheduler, the API): `node <build>/jobs/cli.js` starts in ~0.75 s with ~1 s of CPU where
 * `node --import tsx jobs/cli.ts` takes ~1.05 s and ~1.55 s (tsx's loader thread resolves and transforms
 * some 650 modules at every start), and the suite starts some hundred such processes. Laid out as
 * `npm run build` lays out dist/ (one module per file, the .sql and .json files beside them, the pages
 * at web/dist) but compiled by esbuild in about a second, without type-checking (`npm test` type-checks)
 * and without touching dist/ (the production build's own test rewrites it).
 *
 * The build is made once per run: by the parallel run's global setup (test/helpers/parallelRun.ts, in
 * TEST_COMPILED_DIR, inherited by the workers), else by the first process that needs it, removed when it
 * exits. It lives in <repository>/.test-build/ so that packages resolve from the repository's
 * node_modules; its .data links to the repository's (internal/envFile.ts reads the quick start's file
 * there).
 */
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { copyModuleAssets, moduleSources } from '../../scripts/copyBuildAssets.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Processes the tests start, as their sources name them. */
export type Entry = 'jobs/cli.ts' | 'jobs/scheduler.ts' | 'api/server.ts';

/** Compiles every production module into `outDir` (emptied first), with the files they read beside them. */
export async function compileSources(outDir: string): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: moduleSources(ROOT),
    outdir: outDir,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  copyModuleAssets(ROOT, outDir);
  mkdirSync(join(outDir, 'web'), { recursive: true });
  symlinkSync(join(ROOT, 'web', 'dist'), join(outDir, 'web', 'dist'));
  symlinkSync(join(ROOT, '.data'), join(outDir, '.data'));
}

/** A build directory under .test-build/ named `id`. */
export const compiledDir = (id: string) => join(ROOT, '.test-build', id);

let ownBuild: Promise<string> | undefined;

/** The directory of this run's build: TEST_COMPILED_DIR when the run made one, else this process's own. */
function compiled(): Promise<string> {
  const shared = process.env['TEST_COMPILED_DIR'];
  if (shared && existsSync(shared)) return Promise.resolve(shared);
  ownBuild ??= (async () => {
    const dir = compiledDir(`p${process.pid}`);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    await compileSources(dir);
    return dir;
  })();
  return ownBuild;
}

/** The arguments of `node` that run `entry` (a source path) from this run's build, then `args`. */
export async function nodeArgs(entry: Entry, ...args: string[]): Promise<string[]> {
  return [join(await compiled(), entry.replace(/\.ts$/, '.js')), ...args];
}
