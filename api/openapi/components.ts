import type { Schema } from '../validate.js';

/** Schema objects published under `components.schemas`, by identity. */
const NAMES = new WeakMap<object, string>();

/**
 * Names a shared response schema (Token, Chain, Campaign…). The object itself is returned, so ajv
 * uses it as is; the OpenAPI generator replaces each occurrence with a `$ref` to its component.
 */
export function component<T extends Schema>(name: string, schema: T): T {
  NAMES.set(schema, name);
  return schema;
}

/** The component name of a schema object, if it was declared with `component()`. */
export const componentNameOf = (schema: object): string | undefined => NAMES.get(schema);

/**
 * Deep copy of `schema` with every named component replaced by a `$ref`, collecting the components
 * (themselves with nested components referenced) into `into`.
 */
export function referenceComponents(schema: unknown, into: Record<string, unknown>, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => referenceComponents(s, into, false));
  if (!schema || typeof schema !== 'object') return schema;
  const name = componentNameOf(schema);
  if (name && !root) {
    if (!(name in into)) {
      into[name] = {}; // placeholder first: a component may refer to itself
      into[name] = referenceComponents(schema, into, true);
    }
    return { $ref: `#/components/schemas/${name}` };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, referenceComponents(v, into, false)]));
}
