import { BaseError as ViemBaseError, HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { causesOf, type Classification } from './classification.js';

const NETWORK_MESSAGE = /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|timed? ?out/i;

/** One error of the chain: a timeout, a network failure, an HTTP 429/5xx, or a node-side limit (-32005, -32603). */
function isTransient(e: unknown): boolean {
  if (e instanceof TimeoutError) return true;
  if (e instanceof HttpRequestError) return e.status === undefined || e.status === 429 || e.status >= 500;
  const code = (e as { code?: number }).code;
  if (code === -32005 || code === -32603 || code === 429) return true;
  return NETWORK_MESSAGE.test(e instanceof Error ? e.message : String(e));
}

/**
 * A failure of a JSON-RPC call (null: neither a viem error nor a network failure). Retryable when any
 * error of its cause chain is transient (viem wraps transport errors in call errors); fatal otherwise
 * (bad params, a revert, a decode mismatch). `unavailable` when the node itself failed or refused
 * (viem's HttpRequestError, TimeoutError, RpcRequestError): the API answers 503.
 */
export function classifyRpcError(error: unknown): Classification | null {
  const chain = causesOf(error);
  const transient = chain.find(isTransient);
  if (transient === undefined && !chain.some((e) => e instanceof ViemBaseError)) return null;
  const unavailable =
    error instanceof HttpRequestError || error instanceof TimeoutError || error instanceof RpcRequestError;
  const reason = (transient ?? error) as { name?: string; status?: number };
  return {
    source: 'rpc',
    retryable: transient !== undefined,
    userError: false,
    unavailable,
    reason: reason.status ? `HTTP ${reason.status}` : (reason.name ?? 'rpc error'),
  };
}

/** Retryable (network, timeout, 429, 5xx, node-side limits) versus fatal (bad params, decode) RPC failures. */
export function isRetryableRpcError(error: unknown): boolean {
  return classifyRpcError(error)?.retryable ?? false;
}
