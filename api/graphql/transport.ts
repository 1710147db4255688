import type { RequestParams } from 'graphql-http';
import type { Request as GraphqlHttpRequest, Response as GraphqlHttpResponse } from 'graphql-http';

/** A malformed GraphQL-over-HTTP request: 400 with the GraphQL error shape, its real message and code BAD_REQUEST. */
function badRequest(req: GraphqlHttpRequest<unknown, unknown>, field: string, message: string): GraphqlHttpResponse {
  const accept = String(
    (req.headers as { get?: (n: string) => string | null } & Record<string, unknown>)['accept'] ?? '',
  );
  const type = accept.includes('application/graphql-response+json')
    ? 'application/graphql-response+json'
    : 'application/json';
  return [
    JSON.stringify({ errors: [{ message, extensions: { code: 'BAD_REQUEST', field } }] }),
    { status: 400, statusText: 'Bad Request', headers: { 'content-type': `${type}; charset=utf-8` } },
  ];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * graphql-http's request parsing with each malformed request named (its own throws plain errors
 * that end as "Internal server error"): GET reads the query string, POST the JSON object the body
 * parser produced. Only called for GET and POST with a JSON body (the router refuses the rest).
 */
export async function parseGraphqlRequest(
  req: GraphqlHttpRequest<unknown, unknown>,
): Promise<RequestParams | GraphqlHttpResponse> {
  let data: Record<string, unknown>;
  if (req.method === 'GET') {
    const search = new URLSearchParams(req.url.split('?')[1] ?? '');
    data = { query: search.get('query') ?? undefined, operationName: search.get('operationName') ?? undefined };
    for (const key of ['variables', 'extensions']) {
      const raw = search.get(key);
      if (!raw) continue;
      try {
        data[key] = JSON.parse(raw);
      } catch {
        return badRequest(req, key, `${key} is not valid JSON`);
      }
    }
  } else {
    const body = typeof req.body === 'function' ? await req.body() : req.body;
    if (!isObject(body)) return badRequest(req, 'body', 'The body must be a JSON object with a `query` string');
    data = body;
  }
  if (data['query'] === undefined || data['query'] === null || data['query'] === '')
    return badRequest(req, 'query', 'query is required');
  if (typeof data['query'] !== 'string') return badRequest(req, 'query', 'query must be a string');
  for (const key of ['variables', 'extensions']) {
    if (data[key] !== undefined && data[key] !== null && !isObject(data[key]))
      return badRequest(req, key, `${key} must be a JSON object`);
  }
  if (
    data['operationName'] !== undefined &&
    data['operationName'] !== null &&
    typeof data['operationName'] !== 'string'
  )
    return badRequest(req, 'operationName', 'operationName must be a string');
  return {
    query: data['query'],
    ...(isObject(data['variables']) ? { variables: data['variables'] } : {}),
    ...(typeof data['operationName'] === 'string' ? { operationName: data['operationName'] } : {}),
    ...(isObject(data['extensions']) ? { extensions: data['extensions'] } : {}),
  };
}
