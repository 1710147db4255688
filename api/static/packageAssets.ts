import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import { NotFoundError } from '../errors.js';

const require = createRequire(import.meta.url);

/** A file shipped by an npm package, served by us (issue #8: no CDN, works offline). */
export type PackageAsset = { pkg: string; file: string; type: string };

/** Absolute path of `file` inside the installed package `pkg` (resolved from its package.json, so `exports` maps don't hide dist files). */
export function packageFilePath(pkg: string, file: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

/**
 * Mounts GET `${prefix}/:name` serving the listed package files (read once, on first request) with
 * a day of public caching. Any other name is a 404 problem; nothing outside the list is reachable.
 */
export function servePackageAssets(router: Router, prefix: string, assets: Record<string, PackageAsset>): void {
  const cache = new Map<string, Buffer>();
  router.get(`${prefix}/:name`, (ctx) => {
    const name = ctx.params['name']!;
    const asset = Object.hasOwn(assets, name) ? assets[name] : undefined;
    if (!asset) throw new NotFoundError(`No asset ${name}`);
    let body = cache.get(name);
    if (!body) cache.set(name, (body = readFileSync(packageFilePath(asset.pkg, asset.file))));
    ctx.type = asset.type;
    ctx.set('cache-control', 'public, max-age=86400');
    ctx.body = body;
  });
}

/** Mounts GET `path` answering a script of our own (a page's start-up code beside its package assets). */
export function serveScript(router: Router, path: string, script: string): void {
  router.get(path, (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = script;
  });
}
