import type { Context } from 'koa';
import { NotFoundError } from '../../errors.js';
import { ENUMS, findEnum, type EnumDefinition } from '../../reads/enums/registry.js';
import type { Handler } from '../../validate.js';
import type { batchConvertBody, convertParams, enumParams } from './schema.js';
import { convertEnumValue, serializeEnum, serializeEnumSummary } from './serialize.js';

function enumOr404(name: string): EnumDefinition {
  const e = findEnum(name);
  if (!e) throw new NotFoundError(`Unknown enum ${name}; known: ${ENUMS.map((x) => x.name).join(', ')}`);
  return e;
}

/** GET /v4/enums: every enum with its type and whether entries carry descriptions. */
export function listEnumsHandler() {
  return async (ctx: Context): Promise<void> => {
    ctx.body = { enums: ENUMS.map(serializeEnumSummary) };
  };
}

/** GET /v4/enums/{enumName}: its entries; 404 for an unknown enum. */
export function getEnumHandler(): Handler<{ params: typeof enumParams }> {
  return async (ctx) => {
    ctx.body = serializeEnum(enumOr404(ctx.state.params.enumName));
  };
}

/** GET /v4/enums/{enumName}/convert/{value}: number ↔ name; 404 naming an unknown value. */
export function convertHandler(): Handler<{ params: typeof convertParams }> {
  return async (ctx) => {
    const { enumName, value } = ctx.state.params;
    const e = enumOr404(enumName);
    const result = convertEnumValue(e, value);
    if (!result) throw new NotFoundError(`Value ${value} is not in enum ${e.name}`);
    ctx.body = result;
  };
}

/** POST /v4/enums/{enumName}/batch-convert: converts every value; 404 naming the first unknown one. */
export function batchConvertHandler(): Handler<{ params: typeof enumParams; body: typeof batchConvertBody }> {
  return async (ctx) => {
    const e = enumOr404(ctx.state.params.enumName);
    const { values } = ctx.state.body;
    const results = values.map((v) => {
      const r = convertEnumValue(e, v);
      if (!r) throw new NotFoundError(`Value ${v} is not in enum ${e.name}`);
      return r;
    });
    ctx.body = { results };
  };
}
