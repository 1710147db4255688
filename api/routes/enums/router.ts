import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { batchConvertHandler, convertHandler, getEnumHandler, listEnumsHandler } from './handlers.js';
import { batchConvertBody, convertParams, enumParams } from './schema.js';

/** /v4/enums: public enumerations (api-facts §3.8); no table, built from code constants. */
export function enumsRouter(_deps: ApiDeps): Router {
  const router = new Router();
  const both = (path: string) => [path, `${path}/`];
  router.get(both('/enums'), listEnumsHandler());
  router.get(both('/enums/:enumName'), validate({ params: enumParams }), getEnumHandler());
  router.get(both('/enums/:enumName/convert/:value'), validate({ params: convertParams }), convertHandler());
  router.post(both('/enums/:enumName/batch-convert'), validate({ params: enumParams, body: batchConvertBody }), batchConvertHandler());
  return router;
}
