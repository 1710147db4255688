import Router from '@koa/router';
import { servePackageAssets, serveScript } from '../static/packageAssets.js';

const ASSETS = '/docs/assets';

/** The interactive console: Swagger UI (swagger-ui-dist, served by us) rendering /v4/openapi.json (the reference itself is /docs, web/docs/). */
const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Campaign Rewards API: reference</title>
  <link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${ASSETS}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSETS}/swagger-ui-bundle.js"></script>
  <script src="${ASSETS}/init.js"></script>
</body>
</html>
`;

/** Swagger UI loads only our own files and calls our own API (inline styles and data: images are its own); no page may frame it. */
const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Swagger UI boot script; a file rather than inline so a strict CSP (script-src 'self') allows it. */
const INIT_JS = `window.ui = SwaggerUIBundle({ url: '/v4/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null, tryItOutEnabled: true });\n`;

/**
 * GET /docs/swagger: Swagger UI, the interactive console, and GET /docs/assets/* its files from
 * swagger-ui-dist. Every URL in the page is ours, so it works with no internet access. The API
 * reference at /docs is a page of ours (web/docs/, served by api/web/webRouter.ts): Swagger UI took
 * about 10 s before its first operation showed (#44).
 */
export function docsRouter(): Router {
  const router = new Router();
  router.get(['/docs/swagger', '/docs/swagger/'], (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('content-security-policy', DOCS_CSP);
    ctx.body = DOCS_HTML;
  });
  serveScript(router, `${ASSETS}/init.js`, INIT_JS);
  servePackageAssets(router, ASSETS, {
    'swagger-ui.css': { pkg: 'swagger-ui-dist', file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
    'swagger-ui-bundle.js': {
      pkg: 'swagger-ui-dist',
      file: 'swagger-ui-bundle.js',
      type: 'application/javascript; charset=utf-8',
    },
    'favicon-32x32.png': { pkg: 'swagger-ui-dist', file: 'favicon-32x32.png', type: 'image/png' },
  });
  return router;
}
