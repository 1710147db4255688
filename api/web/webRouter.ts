import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../errors.js';
import { faviconIco } from './favicon.js';
import { PROBLEMS } from '../problems/registry.js';

const FAVICON = faviconIco();

/** Built pages (web/build.ts, run at install time by scripts/ensureDeps.sh). */
export const DEFAULT_WEB_DIST = join(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Asset names are esbuild's content-hashed outputs: safe to cache for a year. */
const ASSET_NAME = /^[A-Za-z0-9_-]{1,128}\.(js|css)$/;
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
/** Pages only talk to their own origin's API; no inline script, no third-party anything. */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

async function readBuilt(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    // Absent, or a name the file system cannot hold: no such file either way.
    if (['ENOENT', 'ENAMETOOLONG', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
}

/**
 * The explorer at `/`, the operations page at `/ops` and the API reference at `/docs` (HTML revalidated on every load:
 * `no-cache` + ETag), and their assets at `/assets/<hashed name>` (`immutable`, one year). Both pages
 * read only the public API. Without a build, pages answer 503 naming the build command.
 * `/favicon.ico` (built in code) is there for every page that asks, GraphiQL and /docs included.
 */
export function webRouter({ distDir = DEFAULT_WEB_DIST }: { distDir?: string } = {}): Router {
  const router = new Router();
  const page = (file: string) => async (ctx: Context) => {
    const html = await readBuilt(join(distDir, file));
    if (!html) throw new AppError(PROBLEMS.WEB_NOT_BUILT, 'The web pages are not built: run `npm run web:build`');
    ctx.set('cache-control', 'no-cache');
    ctx.set('content-security-policy', CSP);
    ctx.set('x-content-type-options', 'nosniff');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };
  router.get('/favicon.ico', (ctx) => {
    ctx.set('cache-control', 'public, max-age=86400');
    ctx.type = 'image/x-icon';
    ctx.body = FAVICON;
  });
  router.get('/', page('index.html'));
  router.get('/ops', page('ops.html'));
  router.get(['/docs', '/docs/'], page('docs.html'));
  router.get('/assets/:file', async (ctx) => {
    const file = ctx.params['file'] ?? '';
    const body = ASSET_NAME.test(file) ? await readBuilt(join(distDir, 'assets', file)) : null;
    if (!body) throw new AppError(PROBLEMS.NOT_FOUND, `No asset ${file}`);
    ctx.set('cache-control', 'public, max-age=31536000, immutable');
    ctx.set('x-content-type-options', 'nosniff');
    ctx.type = TYPES[extname(file)]!;
    ctx.body = body;
  });
  return router;
}
