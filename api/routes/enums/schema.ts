/** Path of /v4/enums/{enumName}… routes. */
export const enumParams = {
  type: 'object',
  additionalProperties: true,
  required: ['enumName'],
  properties: {
    enumName: {
      type: 'string',
      pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$',
      'x-accepts': 'an enum name (a letter, then up to 63 letters, digits or _), as GET /v4/enums lists them',
    },
  },
} as const;

/** Path of …/convert/{value}. */
export const convertParams = {
  ...enumParams,
  required: ['enumName', 'value'],
  properties: { ...enumParams.properties, value: { type: 'string', minLength: 1, maxLength: 128 } },
} as const;

/** Body of POST …/batch-convert: 1–1000 values, names or numbers. */
export const batchConvertBody = {
  type: 'object',
  additionalProperties: false,
  required: ['values'],
  properties: {
    // A type union rather than anyOf, so ajv's coercion keeps numbers as numbers and strings as strings.
    values: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: { type: ['integer', 'string'], minimum: 0, minLength: 1, maxLength: 128 },
    },
  },
} as const;
