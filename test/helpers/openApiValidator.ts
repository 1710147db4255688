import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Doc = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: unknown;
};

export type ResponseCheck = { ok: boolean; errors: ErrorObject[] | null | undefined; documented: boolean };

/**
 * Validates response bodies against an OpenAPI 3.1 document's own response schemas (JSON Schema
 * 2020-12; `#/components/...` refs resolve against the document's components). A status missing
 * from the operation falls back to its `default` response.
 */
export function createResponseValidator(doc: Doc) {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true }));
  ajv.addKeyword({ keyword: 'x-comma-list' });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return function check(
    method: string,
    openApiPath: string,
    status: number,
    contentType: string,
    body: unknown,
  ): ResponseCheck {
    const responses = doc.paths[openApiPath]?.[method.toLowerCase()]?.responses;
    const response = responses?.[String(status)] ?? responses?.['default'];
    const schema = response?.content?.[contentType]?.schema;
    if (!schema) return { ok: false, errors: null, documented: false };
    const key = `${method} ${openApiPath} ${status} ${contentType}`;
    let validate = cache.get(key);
    if (!validate) cache.set(key, (validate = ajv.compile({ allOf: [schema], components: doc.components })));
    const ok = validate(body) as boolean;
    return { ok, errors: validate.errors, documented: true };
  };
}
