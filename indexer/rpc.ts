import { createPublicClient, defineChain, http, HttpRequestError, TimeoutError, type PublicClient } from 'viem';
import type { ChainConfig, Config } from '../internal/config.js';

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

/** Retryable (network, timeout, 429, 5xx) versus fatal (bad params, decode) RPC failures (STYLE §3). */
export function isRetryableRpcError(error: unknown): boolean {
  if (error instanceof TimeoutError) return true;
  if (error instanceof HttpRequestError) return error.status === undefined || error.status === 429 || error.status >= 500;
  const message = error instanceof Error ? error.message : String(error);
  return /ECONNREFUSED|ECONNRESET|fetch failed|socket hang up|timeout/i.test(message);
}

/** An RPC refusal that means "ask for fewer blocks" (providers word it many ways). */
export function isRangeTooLargeError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.message} ${(error as { details?: string }).details ?? ''}` : String(error);
  return /range|too many|limit exceeded|10000 results|response size|block range/i.test(message);
}
