import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import { batchConvertHandler, convertHandler, getEnumHandler, listEnumsHandler } from './handlers.js';
import { batchConvertBody, convertParams, enumParams } from './schema.js';
import { describe } from '../../openapi/describe.js';
import { arr, bool, obj, str } from '../../openapi/schemaHelpers.js';

const enumType = { enum: ['number', 'string'] } as const;
const value = { type: ['string', 'number'] } as const;
const convertSchema = obj({ input: value, output: value, description: str }, ['description']);

/** /v4/enums: public enumerations (docs/api-behaviour.md#enumerations); no table, built from code constants. */
export function enumsRouter(_deps: ApiDeps): Router {
  const router = new Router();
  const both = (path: string) => [path, `${path}/`];
  router.get(
    both('/enums'),
    describe({
      summary: 'Public enumerations',
      description: 'The public enumerations (campaign types, store types, distribution types…) with their values.',
      response: obj({ enums: arr(obj({ name: str, type: enumType, hasMetadata: bool })) }),
    }),
    listEnumsHandler(),
  );
  router.get(
    both('/enums/:enumName'),
    describe({
      summary: 'One enumeration with its entries',
      description: "One enumeration with each entry's key, value and description.",
      response: obj({
        name: str,
        type: enumType,
        entries: arr(obj({ key: str, value, description: str }, ['description'])),
      }),
    }),
    validate({ params: enumParams }),
    getEnumHandler(),
  );
  router.get(
    both('/enums/:enumName/convert/:value'),
    describe({
      summary: 'Convert one value between number and name',
      description: 'Converts a value of the enumeration between its number and its name, in either direction.',
      response: convertSchema,
    }),
    validate({ params: convertParams }),
    convertHandler(),
  );
  router.post(
    both('/enums/:enumName/batch-convert'),
    describe({
      summary: 'Convert several values',
      description: 'Converts several values of the enumeration at once, each between number and name.',
      response: obj({ results: arr(convertSchema) }),
    }),
    validate({ params: enumParams, body: batchConvertBody }),
    batchConvertHandler(),
  );
  return router;
}
