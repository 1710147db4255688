import type { FieldError } from './errors.js';

/** Deepest nesting of arrays and objects a request body may have (parsed JSON, form fields). */
export const MAX_BODY_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Walks a parsed request value without recursion (a 3,000-deep JSON body cannot exhaust the stack):
 * nesting past `maxDepth` is one error naming where it starts; strings or keys holding a lone UTF-16
 * surrogate (valid JSON escapes PostgreSQL and Elasticsearch cannot store) are errors naming their field.
 */
export function bodyShapeErrors(value: unknown, where: string, maxDepth = MAX_BODY_DEPTH): FieldError[] {
  const errors: FieldError[] = [];
  const stack: [unknown, string, number][] = [[value, '', 0]];
  while (stack.length && errors.length < 20) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v))
        errors.push({ field: path || where, message: 'must not contain a lone UTF-16 surrogate' });
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (depth >= maxDepth) {
      // Named by its top-level field (the full path would be `maxDepth` segments long).
      errors.push({ field: path.split('.')[0] || where, message: `is nested deeper than ${maxDepth} levels` });
      break;
    }
    for (const [key, child] of Object.entries(v)) {
      if (LONE_SURROGATE.test(key))
        errors.push({ field: path || where, message: 'must not have a key containing a lone UTF-16 surrogate' });
      stack.push([child, path ? `${path}.${key}` : key, depth + 1]);
    }
  }
  return errors;
}

/**
 * Numbers a validated value may not hold: non-finite ones (`Infinity`, `1e400`, `-Infinity` sent as
 * strings or JSON) and integers past 2^53 − 1, which no longer are the integer the client sent.
 * Iterative, bounded like bodyShapeErrors.
 */
export function numberErrors(value: unknown, where: string): FieldError[] {
  const errors: FieldError[] = [];
  const stack: [unknown, string, number][] = [[value, '', 0]];
  while (stack.length && errors.length < 20) {
    const [v, path, depth] = stack.pop()!;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) errors.push({ field: path || where, message: 'must be a finite number' });
      else if (Number.isInteger(v) && !Number.isSafeInteger(v))
        errors.push({ field: path || where, message: 'must be an integer between -(2^53 - 1) and 2^53 - 1' });
      continue;
    }
    if (!v || typeof v !== 'object' || depth > MAX_BODY_DEPTH) continue;
    for (const [key, child] of Object.entries(v)) stack.push([child, path ? `${path}.${key}` : key, depth + 1]);
  }
  return errors;
}

type PropertySchema = {
  type?: unknown;
  properties?: Record<string, PropertySchema>;
  items?: PropertySchema;
  additionalProperties?: unknown;
};
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * JSON keeps its types (issue 16): only a string where the schema wants a number, integer or
 * boolean is converted (`"5"` → 5, `"true"` → true); booleans, nulls and numbers stay what they are
 * and a scalar never becomes a list, so the validator without coercion judges them. Follows the
 * schema's properties and array items; mutates `value` (a copy) and returns it.
 */
export function coerceJsonStrings(schema: PropertySchema | undefined, value: unknown, depth = 0): unknown {
  if (!schema || depth > MAX_BODY_DEPTH) return value;
  if (typeof value === 'string') {
    const type = schema.type;
    if ((type === 'integer' || type === 'number') && DECIMAL.test(value.trim())) return Number(value);
    if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  }
  if (Array.isArray(value)) {
    if (schema.items)
      for (let i = 0; i < value.length; i++) value[i] = coerceJsonStrings(schema.items, value[i], depth + 1);
    return value;
  }
  if (value && typeof value === 'object' && schema.properties) {
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(schema.properties))
      if (Object.hasOwn(record, key)) record[key] = coerceJsonStrings(child, record[key], depth + 1);
  }
  return value;
}

/**
 * Form and multipart bodies carry an object or array field as JSON text (multipart has no other way:
 * its fields are flat strings; OpenAPI's default encoding of such a part is application/json):
 * where the schema wants an object or array at the top level and the value is a string holding one,
 * it is parsed. Anything else is left for the validator to name. Mutates `value` (a copy).
 */
export function parseFormJsonFields(schema: PropertySchema | undefined, value: unknown): unknown {
  if (!schema?.properties || !value || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  for (const [key, child] of Object.entries(schema.properties)) {
    const text = record[key];
    const wants = child.type === 'array' ? '[' : child.type === 'object' || child.properties ? '{' : undefined;
    if (!wants || typeof text !== 'string' || !text.trimStart().startsWith(wants)) continue;
    try {
      record[key] = JSON.parse(text);
    } catch {
      // Not JSON after all: the validator names the field.
    }
  }
  return value;
}
