import { BaseError, type ErrorTraits } from '../errors.js';
import { causesOf, type Classification } from './classification.js';
import { classifyElasticsearchError } from './elasticsearch.js';
import { classifyPostgresError } from './postgres.js';
import { classifyRpcError } from './rpc.js';

/**
 * A failure of a backing service as its source's classifier sees it (null: none of ours): tried in
 * this order: Elasticsearch's errors are its own classes; a socket error code (ECONNREFUSED) alone names
 * no source and the PostgreSQL classifier takes it (node-postgres throws it bare); the RPC classifier
 * knows viem's errors and network messages. HTTP sources classify their failures where they fetch (http.ts).
 */
export function classifySourceError(error: unknown): Classification | null {
  return classifyElasticsearchError(error) ?? classifyPostgresError(error) ?? classifyRpcError(error);
}

/**
 * Whether `error` is retryable and whether the caller is at fault, the one question jobs and the API
 * ask: our errors (BaseError, the API's AppError) carry both; a library error of a backing service is
 * classified by its source; a plain wrapper is judged by its cause. Anything else is fatal and ours.
 */
export function traitsOf(error: unknown): ErrorTraits {
  for (const e of causesOf(error)) {
    if (e instanceof BaseError) return { retryable: e.retryable, userError: e.userError };
    const classified = classifySourceError(e);
    if (classified) return { retryable: classified.retryable, userError: classified.userError };
  }
  return { retryable: false, userError: false };
}

/** Another attempt later may succeed (traitsOf). */
export function isRetryable(error: unknown): boolean {
  return traitsOf(error).retryable;
}
