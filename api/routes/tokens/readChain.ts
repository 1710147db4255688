import type { ChainClient } from '../../../internal/rpc.js';
import type { ApiDeps } from '../../deps.js';
import { AppError, ServiceUnavailableError, ValidationError } from '../../errors.js';

/** The chain client of `chainId`; a chain we do not serve is a 400 naming `field`. */
export function chainClientOf(deps: ApiDeps, chainId: number, field = 'chainId'): ChainClient {
  const chain = deps.rpc.get(chainId);
  if (!chain)
    throw new ValidationError([
      { field, message: `must be a supported chain (supported: ${[...deps.rpc.keys()].join(', ')})` },
    ]);
  return chain;
}

/**
 * Runs the on-chain reads of one request against one deadline (twice the RPC timeout: a block
 * number, then one multicall at it), so the transport's retries never hold a request open for
 * long; a failing, slow or unreachable node is a 503 naming the chain, never a 500.
 */
export async function readChain<T>(deps: ApiDeps, chain: ChainClient, read: () => Promise<T>): Promise<T> {
  const ms = 2 * deps.config.indexer.rpcTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([read(), deadline]);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new ServiceUnavailableError(`the RPC of chain ${chain.chain.id}`, error);
  } finally {
    clearTimeout(timer);
  }
}
