import type { Schema } from '../validate.js';

/** Small builders for response schemas (plain JSON Schema, valid for ajv and OpenAPI 3.1 alike). */
export const str = { type: 'string' } as const;
export const num = { type: 'number' } as const;
export const int = { type: 'integer' } as const;
export const bool = { type: 'boolean' } as const;
/** Any JSON value. */
export const any = {} as const;
/** An integer too large for a JSON number (wei, uint256, Unix seconds as bigint) as a decimal string. */
export const decimal = { type: 'string', pattern: '^-?[0-9]+$' } as const;
export const hex = { type: 'string', pattern: '^0x[0-9a-fA-F]*$' } as const;
export const isoDate = { type: 'string', format: 'date-time' } as const;
export const stringMap = (values: Schema = any): Schema => ({ type: 'object', additionalProperties: values });

export const arr = (items: Schema): Schema => ({ type: 'array', items });
export const oneOfValues = (values: readonly (string | number)[]): Schema => ({ enum: [...values] });

/** `schema` or null: a union type for primitives, `anyOf` for objects and references. */
export function nullable(schema: Schema): Schema {
  const type = schema['type'];
  if (typeof type === 'string' && type !== 'object' && type !== 'array' && !('enum' in schema))
    return { ...schema, type: [type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** An object whose properties are all required except those in `optional`; extra properties allowed. */
export function obj(properties: Record<string, Schema>, optional: readonly string[] = []): Schema {
  return { type: 'object', required: Object.keys(properties).filter((k) => !optional.includes(k)), properties };
}
