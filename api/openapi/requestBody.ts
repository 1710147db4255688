import type { Schema } from '../validate.js';
import { exampleOf } from './examples.js';

/** The media types every write route accepts (api/middleware/bodyParser.ts; spec "Shared conventions"). */
export const BODY_MEDIA_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
] as const;

const FORM_NOTE =
  'Sent as `application/json`, `application/x-www-form-urlencoded` or `multipart/form-data`, with the same fields. In a form, numbers and booleans are strings (`"5"`, `"true"`), and an object or array field is either JSON text (`entries=[{"address":"0x…","value":"…"}]`; the only way in multipart, where each such part is `application/json`) or, URL-encoded only, bracket notation (`entries[0][address]=0x…`).';

/**
 * The request body of an operation in all three accepted media types, from its one validated
 * schema, each with the same examples (`examples` given by the route, else one built from the schema).
 */
export function requestBodyOf(schema: Schema, examples?: Record<string, { summary: string; value: unknown }>) {
  const named = examples ?? { example: { summary: 'A valid body', value: exampleOf(schema) } };
  const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
  const structured = Object.keys(properties).filter((name) => {
    const type = properties[name]!['type'];
    return type === 'object' || type === 'array' || properties[name]!['additionalProperties'] !== undefined;
  });
  const multipartEncoding = Object.fromEntries(structured.map((name) => [name, { contentType: 'application/json' }]));
  return {
    required: true,
    description: FORM_NOTE,
    content: Object.fromEntries(
      BODY_MEDIA_TYPES.map((type) => [
        type,
        {
          schema,
          examples: named,
          ...(type === 'multipart/form-data' && structured.length ? { encoding: multipartEncoding } : {}),
        },
      ]),
    ),
  };
}
