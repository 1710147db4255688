import type { Context, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { AppError } from '../errors.js';

/** Largest accepted request body (JSON, form or multipart fields). */
const BODY_LIMIT = '64kb';

/**
 * Request bodies for write routes, accepted as application/json, application/x-www-form-urlencoded
 * or multipart/form-data (spec: shared conventions); the values arrive on ctx.request.body, where
 * route schemas coerce numbers and booleans sent as strings. A malformed or oversized body is a
 * 400/413 problem (the error handler maps koa-body's HTTP errors); a parser failure without a
 * status (e.g. multipart/form-data without a boundary, from formidable) is a 400 too, never a 500.
 */
export function bodyParser() {
  const parse = koaBody({
    json: true,
    urlencoded: true,
    multipart: true,
    jsonLimit: BODY_LIMIT,
    formLimit: BODY_LIMIT,
    textLimit: BODY_LIMIT,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    formidable: { maxFileSize: 0, maxFields: 1000, maxFieldsSize: 64 * 1024, allowEmptyFiles: false },
  });
  return async (ctx: Context, next: Next): Promise<void> => {
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
        await next();
      });
    } catch (error) {
      if (parsed || typeof (error as { status?: unknown }).status === 'number') throw error;
      throw new AppError(400, 'BAD_REQUEST', `The request body could not be parsed: ${(error as Error).message}`, { cause: error, errors: [{ field: 'body', message: 'could not be parsed' }] });
    }
  };
}
