import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../errors.js';
import { PROBLEM_PAGE_CSP, problemHtml, problemIndexHtml, problemJson } from './page.js';
import { PROBLEMS, problemOfSlug } from './registry.js';

/** HTML unless the client prefers JSON (`Accept: application/json`). */
function answer(ctx: Context, html: () => string, json: () => unknown): void {
  ctx.set('cache-control', 'public, max-age=3600');
  // Cached publicly and chosen by Accept: a shared cache must not hand the JSON to a browser, or the reverse.
  ctx.vary('Accept');
  if (ctx.accepts('html', 'json') === 'json') {
    ctx.body = json();
    return;
  }
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('content-security-policy', PROBLEM_PAGE_CSP);
  ctx.body = html();
}

/**
 * GET /problems: every problem code of the API; GET /problems/{slug} (`validation-failed`): what one
 * means, the page every problem body's `type` points to. Built from the registry
 * (api/problems/registry.ts); HTML, or JSON for `Accept: application/json`. Beside the REST API, as
 * /docs: public, not operations of the OpenAPI document (whose Problem schema says where `type` leads).
 */
export function problemsRouter(): Router {
  const router = new Router();
  router.get(['/problems', '/problems/'], (ctx) =>
    answer(ctx, problemIndexHtml, () => ({ problems: Object.values(PROBLEMS).map(problemJson) })),
  );
  router.get(['/problems/:slug', '/problems/:slug/'], (ctx) => {
    const problem = problemOfSlug(ctx.params['slug'] ?? '');
    if (!problem) throw new AppError(PROBLEMS.NOT_FOUND, `No problem ${ctx.params['slug']}: GET /problems lists them`);
    answer(
      ctx,
      () => problemHtml(problem),
      () => problemJson(problem),
    );
  });
  return router;
}
