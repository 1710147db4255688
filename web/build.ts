import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Where the built pages go (git-ignored); the API serves them (api/web/webRouter.ts). */
export const WEB_DIST = join(dirname(fileURLToPath(import.meta.url)), 'dist');

/** `skipLink: false`: the page renders its own, whose target depends on the view (the explorer's results). */
const PAGES = [
  { entry: 'explorer/main.tsx', html: 'index.html', title: 'Campaign rewards explorer', skipLink: false },
  { entry: 'ops/main.tsx', html: 'ops.html', title: 'Operations · campaign rewards', skipLink: true },
  // The reference fetches the OpenAPI document as the HTML arrives, beside its script (#44: first operation ≤ 2 s).
  {
    entry: 'docs/main.tsx',
    html: 'docs.html',
    title: 'Campaign Rewards API: reference',
    skipLink: true,
    preload: ['/v4/openapi.json'],
  },
] as const;

/** Pure: the HTML shell of one page, loading its content-hashed script and stylesheet. */
export function pageHtml({
  title,
  script,
  style,
  skipLink = true,
  preload = [],
  chunks = [],
}: {
  title: string;
  script: string;
  /** Chunks the script imports: fetched beside it (`rel=modulepreload`) rather than after it is parsed. */
  chunks?: readonly string[];
  style: string | undefined;
  skipLink?: boolean;
  /** Data the page fetches at once: the browser starts fetching it with the HTML (`rel=preload`, as fetch). */
  preload?: readonly string[];
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
${preload.map((href) => `<link rel="preload" href="${href}" as="fetch" crossorigin="anonymous">\n`).join('')}${chunks.map((c) => `<link rel="modulepreload" href="/assets/${c}">\n`).join('')}${style ? `<link rel="stylesheet" href="/assets/${style}">\n` : ''}<script type="module" src="/assets/${script}"></script>
</head>
<body>
${skipLink ? '<a class="skip" href="#main">Skip to content</a>\n' : ''}<div id="app"></div>
<noscript>This page needs JavaScript; the API itself is under /v4.</noscript>
</body>
</html>
`;
}

/**
 * Bundles the explorer, the operations page and the API reference (/docs) with esbuild (preact, minified, content-hashed
 * names so assets can be cached for a year) and writes one HTML shell per page. Offline: every
 * input comes from node_modules.
 * @returns the files written, relative to WEB_DIST.
 */
export async function buildWeb({ outDir = WEB_DIST }: { outDir?: string } = {}): Promise<string[]> {
  const root = dirname(fileURLToPath(import.meta.url));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: PAGES.map((p) => join(root, p.entry)),
    outdir: join(outDir, 'assets'),
    entryNames: '[dir]-[hash]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    sourcemap: false,
    target: ['es2020'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    metafile: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  const written = readdirSync(join(outDir, 'assets')).map((f) => `assets/${f}`);
  for (const page of PAGES) {
    const [script, meta] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint?.endsWith(page.entry))!;
    writeFileSync(
      join(outDir, page.html),
      pageHtml({
        title: page.title,
        script: basename(script),
        style: meta.cssBundle ? basename(meta.cssBundle) : undefined,
        skipLink: page.skipLink,
        preload: 'preload' in page ? page.preload : [],
        chunks: meta.imports.filter((i) => i.kind === 'import-statement').map((i) => basename(i.path)),
      }),
    );
    written.push(page.html);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const files = await buildWeb();
  console.log(`[web] built ${files.length} files into web/dist in ${Date.now() - started} ms`);
}
