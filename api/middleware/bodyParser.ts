import type { Context, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { AppError, ValidationError } from '../errors.js';
import { bodyShapeErrors } from '../inputShape.js';
import { PROBLEMS } from '../problems/registry.js';

/** Largest accepted request body (JSON, form or multipart fields). */
const BODY_LIMIT = 64 * 1024;
/**
 * Routes whose bodies are legitimately larger, with their limit: a key-value batch holds up to
 * 1000 entries of a 66-character address and a 1024-character value (≈ 1.1 MB of JSON); a login
 * carries a signature of up to 65,536 characters.
 */
const LARGE_BODY_ROUTES: [RegExp, number][] = [
  [/^\/v4\/key-value-stores\/[^/]+\/entries\/batch\/?$/, 2 * 1024 * 1024],
  // A login signature may be 65,536 characters (smart-wallet signatures): the body holds more, so a
  // longer one is a 400 naming `signature`, not a 413.
  [/^\/v4\/auth\/login\/?$/, 256 * 1024],
];

function parserWithLimit(limit: number) {
  return koaBody({
    json: true,
    urlencoded: true,
    multipart: true,
    jsonLimit: limit,
    formLimit: limit,
    textLimit: limit,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    formidable: { maxFileSize: 0, maxFields: 1000, maxFieldsSize: limit, allowEmptyFiles: false },
  });
}

/**
 * Request bodies for write routes, accepted as application/json, application/x-www-form-urlencoded
 * or multipart/form-data (every write route accepts all three; docs/api-behaviour.md#errors for the 400 shape); the values arrive on ctx.request.body, where
 * route schemas coerce numbers and booleans sent as strings. A malformed or oversized body is a
 * 400/413 problem (the error handler maps koa-body's HTTP errors); a parser failure without a
 * status (e.g. multipart/form-data without a boundary, from formidable) is a 400 too, never a 500.
 */
export function bodyParser() {
  const standard = parserWithLimit(BODY_LIMIT);
  const large = LARGE_BODY_ROUTES.map(([path, limit]) => [path, parserWithLimit(limit)] as const);
  return async (ctx: Context, next: Next): Promise<void> => {
    const parse = large.find(([path]) => path.test(ctx.path))?.[1] ?? standard;
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
        // Past the parser, before any route walks the body: nesting and lone surrogates are a 400 naming the field.
        const shape = bodyShapeErrors((ctx.request as { body?: unknown }).body, 'body');
        if (shape.length) throw new ValidationError(shape);
        await next();
      });
    } catch (error) {
      if (parsed || typeof (error as { status?: unknown }).status === 'number') throw error;
      throw new AppError(PROBLEMS.BAD_REQUEST, `The request body could not be parsed: ${(error as Error).message}`, {
        cause: error,
        errors: [{ field: 'body', message: 'could not be parsed' }],
      });
    }
  };
}
