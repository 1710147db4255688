import { createServer } from 'node:net';
import type { Config } from '../../internal/config.js';
import { createChainClients, type ChainClients } from '../../internal/rpc.js';
import type { Harness } from './harness.js';

/** Id of the chain whose RPC does not answer. */
export const DEAD_CHAIN_ID = 999;

/** A local port nothing listens on (bound, then closed): connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The harness's config and RPC clients plus a chain DEAD_CHAIN_ID whose RPC URL points at a closed
 * local port: a node that is down, for real (connection refused), without touching the devnets.
 */
export async function withDeadChain(h: Harness): Promise<{ config: Config; rpc: ChainClients }> {
  const template = h.config.chains[0]!;
  const dead = {
    ...template,
    id: DEAD_CHAIN_ID,
    name: 'Dead chain',
    rpcUrl: `http://127.0.0.1:${await closedPort()}`,
    tokens: [],
    priceFeeds: {},
  };
  const config = { ...h.config, chains: [...h.config.chains, dead] } as Config;
  return { config, rpc: new Map([...h.deps.rpc, ...createChainClients({ ...config, chains: [dead] })]) };
}
