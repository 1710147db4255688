import { createPublicClient, defineChain, http, toHex, type PublicClient, type Transport } from 'viem';
import type { ChainConfig, Config } from './config.js';
import { causesOf } from './errorSources/classification.js';

/**
 * A chain's client; `readGas`, the gas of each read of a bounded multicall (domain/boundedReads.ts:
 * INDEXER_READ_GAS for the jobs' clients) and `callGas`, the most any of its eth_calls carries
 * (INDEXER_CALL_GAS), when not the defaults.
 */
export type ChainClient = { chain: ChainConfig; client: PublicClient; readGas?: bigint; callGas?: bigint };

/** JSON-RPC methods that run code on the node: each call carries a gas limit. */
const EXECUTING = new Set(['eth_call', 'eth_estimateGas', 'eth_createAccessList']);

/** Whether `method` runs code on the node (its call carries a gas limit: capGas). */
export const runsCode = (method: string): boolean => EXECUTING.has(method);

/**
 * Pure: the params of `method` with the call's gas limited to `gas` (a lower limit the caller set is
 * kept). Without a limit a node runs an eth_call with its whole gas cap (Hardhat: the block's 30M gas,
 * a minute and 13 GB of memory for a looping contract; issue #43 F1).
 */
export function capGas(method: string, params: unknown, gas: bigint): unknown {
  if (!EXECUTING.has(method) || !Array.isArray(params) || typeof params[0] !== 'object' || params[0] === null)
    return params;
  const [call, ...rest] = params as [{ gas?: string }, ...unknown[]];
  const asked = call.gas === undefined ? undefined : BigInt(call.gas);
  return [{ ...call, gas: toHex(asked !== undefined && asked < gas ? asked : gas) }, ...rest];
}

/** `transport` whose every eth_call (estimate, access list) carries at most `gas` (capGas). */
export function gasCapped(transport: Transport, gas: bigint): Transport {
  return (args) => {
    const inner = transport(args);
    const request = ((a: { method: string; params?: unknown }, options?: unknown) =>
      inner.request(
        { ...a, params: capGas(a.method, a.params, gas) } as never,
        options as never,
      )) as typeof inner.request;
    return { ...inner, request };
  };
}
export type ChainClients = Map<number, ChainClient>;

/**
 * One viem public client per configured chain: bounded timeout, exponential-backoff retries for
 * transient failures (viem retries 429/5xx/timeouts), JSON-RPC batching of concurrent calls, and a
 * gas limit on every eth_call (INDEXER_CALL_GAS: gasCapped); the reads of a bounded multicall get
 * INDEXER_READ_GAS each.
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
      transport: gasCapped(
        http(chain.rpcUrl, {
          timeout: config.indexer.rpcTimeoutMs,
          retryCount: config.indexer.rpcRetries,
          retryDelay: 250,
          batch: { batchSize: 100, wait: 0 },
        }),
        BigInt(config.indexer.callGas),
      ),
      cacheTime: 0,
    }) as PublicClient;
    clients.set(chain.id, {
      chain,
      client,
      readGas: BigInt(config.indexer.readGas),
      callGas: BigInt(config.indexer.callGas),
    });
  }
  return clients;
}

/** An RPC refusal that means "ask for fewer blocks" (providers word it many ways). */
export function isRangeTooLargeError(error: unknown): boolean {
  return causesOf(error).some((e) => {
    const message = e instanceof Error ? `${e.message} ${(e as { details?: string }).details ?? ''}` : String(e);
    return /block range|range limit|range too (large|wide)|too many (results|blocks)|more than \d+ results|limit exceeded|response size|exceeded the size limit/i.test(
      message,
    );
  });
}
