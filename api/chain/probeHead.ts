import type { ChainClient } from '../../internal/rpc.js';

export type ChainHead = { number: number; timestamp: number };

/** The probe in flight per chain client and kind: concurrent probes of one chain share it. */
const inFlight = new WeakMap<ChainClient, Map<string, Promise<unknown>>>();

function shared<T>(chain: ChainClient, kind: string, read: () => Promise<T>): Promise<T> {
  let byKind = inFlight.get(chain);
  if (!byKind) inFlight.set(chain, (byKind = new Map()));
  const running = byKind.get(kind) as Promise<T> | undefined;
  if (running) return running;
  const started = read().finally(() => byKind.delete(kind));
  byKind.set(kind, started);
  return started;
}

/**
 * The chain's latest block number, for operators' probes (GET /v4/health, /metrics): the one chain
 * read outside readChain's gate, so that a full gate does not read as a node down. It reads no code
 * and names nothing the request chose, and concurrent probes of a chain share one request, so a burst
 * of probes costs the node one `eth_blockNumber` at a time (docs/api-behaviour.md#bounded-chain-reads).
 */
export function probeBlockNumber(chain: ChainClient): Promise<number> {
  return shared(chain, 'number', async () => Number(await chain.client.getBlockNumber()));
}

/** The chain's latest block and its time, for the operations page (shared as probeBlockNumber). */
export function probeHead(chain: ChainClient): Promise<ChainHead> {
  return shared(chain, 'head', async () => {
    const block = await chain.client.getBlock({ blockTag: 'latest' });
    return { number: Number(block.number), timestamp: Number(block.timestamp) };
  });
}
