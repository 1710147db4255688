import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Files the compiled code reads at run time next to its modules: migrations and search mappings, ABIs. */
const ASSET_EXTENSIONS = new Set(['.sql', '.json']);
const SKIP_DIRS = new Set(['node_modules', 'dist', 'test', '.data', 'src', 'bench']);

/** Pure: the folders (and single files) `tsc -p tsconfig.json` compiles, from its `include` list. */
export function sourceRoots(tsconfig: { include?: string[] }): string[] {
  return (tsconfig.include ?? []).map((p) => p.replace(/\/\*\*.*$/, '').replace(/\/$/, ''));
}

/** Every file under `dir` (recursively) that `accept`s, skipping dependencies, outputs, tests and Solidity sources. */
function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIP_DIRS.has(entry.name) ? [] : filesUnder(path, accept);
    return accept(entry.name) ? [path] : [];
  });
}

const isAsset = (name: string) => ASSET_EXTENSIONS.has(extname(name)) && !/^tsconfig.*\.json$/.test(name);

/**
 * After `tsc -p tsconfig.build.json` (sources → dist/ with the same layout): copies what the
 * compiled modules read beside themselves (SQL migrations, Elasticsearch mappings, contract
 * artifacts: every .sql and .json under the compiled folders) and the built pages (web/dist →
 * dist/web/dist, where api/web/webRouter.js looks), so `node dist/…` runs without the sources.
 * Folders come from tsconfig.json's include list, so a moved or new folder is carried too.
 * @returns the files copied, relative to the repository.
 */
export function copyBuildAssets(root: string, outDir = join(root, 'dist')): string[] {
  const files = copyModuleAssets(root, outDir);
  const pages = join(root, 'web', 'dist');
  if (!existsSync(join(pages, 'index.html'))) throw new Error('web/dist is not built: run `npm run web:build` first');
  cpSync(pages, join(outDir, 'web', 'dist'), { recursive: true });
  return [...files.map((f) => relative(root, f)), 'web/dist/'];
}

/** The folders (and single files) of the compiled sources: tsconfig.json's include list, tests and outputs left out. */
export function compiledRoots(root: string): string[] {
  const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { include?: string[] };
  return sourceRoots(tsconfig).filter((r) => !SKIP_DIRS.has(r));
}

/** The TypeScript modules under the compiled folders (absolute paths; declaration files left out). */
export function moduleSources(root: string): string[] {
  return compiledRoots(root).flatMap((r) => {
    const path = join(root, r);
    if (r.endsWith('.ts')) return existsSync(path) ? [path] : [];
    return filesUnder(path, (name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
  });
}

/** Copies the .sql and .json files the compiled modules read beside themselves into `outDir`; returns them (absolute). */
export function copyModuleAssets(root: string, outDir: string): string[] {
  const files = compiledRoots(root).flatMap((r) => filesUnder(join(root, r), isAsset));
  for (const file of files) {
    const target = join(outDir, relative(root, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
  }
  return files;
}

// `npm run build` runs it from the repository root, compiled (node dist/scripts/copyBuildAssets.js).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const copied = copyBuildAssets(process.cwd());
  console.log(`[build] copied ${copied.length} asset files and folders into dist/`);
}
