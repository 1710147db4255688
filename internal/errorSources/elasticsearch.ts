import { errors } from '@elastic/elasticsearch';
import type { Classification } from './classification.js';

/**
 * A failure of an Elasticsearch call (null: not one). No connection, a timeout, an overloaded
 * cluster (429/503) or a missing index or alias (between a reindex's steps, before the first
 * publish) are outages: retryable and `unavailable`. Another 5xx is retryable. Any other refusal
 * means we built a bad request: fatal, never the caller's fault (the API validates first).
 */
export function classifyElasticsearchError(error: unknown): Classification | null {
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError
  )
    return { source: 'elasticsearch', retryable: true, userError: false, unavailable: true, reason: error.name };
  if (error instanceof errors.ResponseError) {
    const status = error.statusCode ?? 0;
    const type = (error.body as { error?: { type?: string } } | undefined)?.error?.type;
    const unavailable = status === 503 || status === 429 || type === 'index_not_found_exception';
    return {
      source: 'elasticsearch',
      retryable: unavailable || status === 408 || status >= 500,
      userError: false,
      unavailable,
      reason: type ?? `HTTP ${status}`,
    };
  }
  if (error instanceof errors.ElasticsearchClientError)
    return { source: 'elasticsearch', retryable: false, userError: false, unavailable: false, reason: error.name };
  return null;
}
