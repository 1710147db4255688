import { HttpMethodEnum, koaBody } from 'koa-body';

/** Largest accepted request body (JSON, form or multipart fields). */
const BODY_LIMIT = '64kb';

/**
 * Request bodies for write routes, accepted as application/json, application/x-www-form-urlencoded
 * or multipart/form-data (spec: shared conventions); the values arrive on ctx.request.body, where
 * route schemas coerce numbers and booleans sent as strings. A malformed or oversized body is a
 * 400/413 problem (the error handler maps koa-body's HTTP errors).
 */
export function bodyParser() {
  return koaBody({
    json: true,
    urlencoded: true,
    multipart: true,
    jsonLimit: BODY_LIMIT,
    formLimit: BODY_LIMIT,
    textLimit: BODY_LIMIT,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    formidable: { maxFileSize: 0, maxFields: 1000, maxFieldsSize: 64 * 1024, allowEmptyFiles: false },
  });
}
