import type { ChainClient } from '../../../internal/rpc.js';
import type { ApiDeps } from '../../deps.js';
import { ValidationError } from '../../errors.js';

/** The chain client of `chainId`; a chain we do not serve is a 400 naming `field`. */
export function chainClientOf(deps: ApiDeps, chainId: number, field = 'chainId'): ChainClient {
  const chain = deps.rpc.get(chainId);
  if (!chain)
    throw new ValidationError([
      { field, message: `must be a supported chain (supported: ${[...deps.rpc.keys()].join(', ')})` },
    ]);
  return chain;
}
