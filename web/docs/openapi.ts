/** The parts of an OpenAPI 3.1 document the reference page reads (api/openapi/buildOpenApi.ts writes them). */
export type Schema = Record<string, unknown> & { $ref?: string };
export type Parameter = {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema?: Schema;
};
export type MediaType = {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value?: unknown; summary?: string }>;
};
export type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, MediaType> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaType> }>;
  security?: Record<string, string[]>[];
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
export type ListedOperation = Operation & { method: string; path: string };
export type TagSection = { tag: string; description?: string; operations: ListedOperation[] };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Pure: the document's operations grouped by tag, in the order of its `tags` (what users do first:
 * api/openapi/tagOrder.ts), each tag's operations in the document's path order; a tag the list does
 * not name comes last.
 */
export function tagSections(doc: OpenApiDocument): TagSection[] {
  const sections = new Map<string, TagSection>();
  for (const t of doc.tags ?? []) sections.set(t.name, { tag: t.name, description: t.description, operations: [] });
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      if (!sections.has(tag)) sections.set(tag, { tag, operations: [] });
      sections.get(tag)!.operations.push({ ...op, method, path });
    }
  return [...sections.values()].filter((s) => s.operations.length > 0);
}

/** Pure: whether an operation matches a search (every word in its method, path, summary, id or tag). */
export function operationMatches(op: ListedOperation, query: string): boolean {
  const text =
    `${op.method} ${op.path} ${op.summary ?? ''} ${op.operationId} ${op.tags?.join(' ') ?? ''}`.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => text.includes(w));
}

/** Pure: the component name of a `$ref` ("#/components/schemas/Opportunity" → "Opportunity"). */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** Pure: a schema in a few words: "integer ≥ 0 ≤ 100, default 20", "array of Opportunity", "A | B". */
export function schemaSummary(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return refName(schema.$ref);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const parts = schema[key] as Schema[] | undefined;
    if (parts) return parts.map(schemaSummary).join(' | ');
  }
  if (Array.isArray(schema['enum']))
    return `one of ${(schema['enum'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  const type = Array.isArray(schema['type'])
    ? (schema['type'] as string[]).join(' | ')
    : String(schema['type'] ?? 'any');
  if (type === 'array') return `array of ${schemaSummary(schema['items'] as Schema | undefined) || 'any'}`;
  const bits = [type];
  if (schema['format']) bits.push(`(${schema['format']})`);
  if (schema['minimum'] !== undefined) bits.push(`≥ ${schema['minimum']}`);
  if (schema['maximum'] !== undefined) bits.push(`≤ ${schema['maximum']}`);
  if (schema['pattern']) bits.push(`matching ${schema['pattern']}`);
  const text = bits.join(' ');
  return schema['default'] !== undefined ? `${text}, default ${JSON.stringify(schema['default'])}` : text;
}

/**
 * Pure: the request URL of a try-out: path parameters filled in (encoded), query parameters that
 * have a value appended. A missing required path parameter is reported, not sent.
 */
export function tryUrl(
  path: string,
  parameters: readonly Parameter[],
  values: Record<string, string>,
): { url: string } | { missing: string[] } {
  const missing = parameters.filter((p) => p.in === 'path' && !values[p.name]?.trim()).map((p) => p.name);
  if (missing.length) return { missing };
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name]!.trim()));
  const query = new URLSearchParams();
  for (const p of parameters) if (p.in === 'query' && values[p.name]?.trim()) query.set(p.name, values[p.name]!.trim());
  const q = query.toString();
  return { url: q ? `${filled}?${q}` : filled };
}
