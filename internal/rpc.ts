import { createPublicClient, defineChain, http, HttpRequestError, TimeoutError, type PublicClient } from 'viem';
import type { ChainConfig, Config } from './config.js';

export type ChainClient = { chain: ChainConfig; client: PublicClient };
export type ChainClients = Map<number, ChainClient>;

/**
 * One viem public client per configured chain: bounded timeout, exponential-backoff retries for
 * transient failures (viem retries 429/5xx/timeouts), JSON-RPC batching of concurrent calls.
 */
export function createChainClients(config: Pick<Config, 'chains' | 'indexer'>): ChainClients {
  const clients: ChainClients = new Map();
  for (const chain of config.chains) {
    const viemChain = defineChain({
      id: chain.id,
      name: chain.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    });
    const client = createPublicClient({
      chain: viemChain,
      transport: http(chain.rpcUrl, {
        timeout: config.indexer.rpcTimeoutMs,
        retryCount: config.indexer.rpcRetries,
        retryDelay: 250,
        batch: { batchSize: 100, wait: 0 },
      }),
      cacheTime: 0,
    }) as PublicClient;
    clients.set(chain.id, { chain, client });
  }
  return clients;
}

/** The error and its causes, outermost first (viem wraps transport errors in call errors). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = error; e !== undefined && e !== null && chain.length < 10; e = (e as { cause?: unknown }).cause)
    chain.push(e);
  return chain;
}

/** Retryable (network, timeout, 429, 5xx, node-side limits) versus fatal (bad params, decode) RPC failures. */
export function isRetryableRpcError(error: unknown): boolean {
  return causes(error).some((e) => {
    if (e instanceof TimeoutError) return true;
    if (e instanceof HttpRequestError) return e.status === undefined || e.status === 429 || e.status >= 500;
    const code = (e as { code?: number }).code;
    if (code === -32005 || code === -32603 || code === 429) return true;
    const message = e instanceof Error ? e.message : String(e);
    return /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|timed? ?out/i.test(message);
  });
}

/** An RPC refusal that means "ask for fewer blocks" (providers word it many ways). */
export function isRangeTooLargeError(error: unknown): boolean {
  return causes(error).some((e) => {
    const message = e instanceof Error ? `${e.message} ${(e as { details?: string }).details ?? ''}` : String(e);
    return /block range|range limit|range too (large|wide)|too many (results|blocks)|more than \d+ results|limit exceeded|response size|exceeded the size limit/i.test(
      message,
    );
  });
}
