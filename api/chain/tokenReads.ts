import { erc20Abi, type Address, type PublicClient } from 'viem';
import type { TokenRow } from '../../domain/readTokenMetadata.js';
import { isNodeFailure } from './readChain.js';

export type Erc20Read =
  | { address: string; functionName: 'name' | 'symbol' | 'decimals' }
  | { address: string; functionName: 'balanceOf'; args: readonly [Address] }
  | { address: string; functionName: 'allowance'; args: readonly [Address, Address] };

/** `blockNumber` given, or the latest block. */
const at = (blockNumber?: bigint) => (blockNumber === undefined ? {} : { blockNumber });

/**
 * ERC20 reads, one eth_call each at `blockNumber`, through a readChain client (which limits each
 * call's gas). Not one Multicall3 aggregate3: it forwards 63/64 of the gas left to each call, so one
 * looping contract would spend the budget of every call after it; separate calls fail alone. The
 * calls are made in the same tick, so the transport sends them as one JSON-RPC batch.
 * @returns each result, `undefined` where the call failed on chain (reverted, out of gas, no code).
 * @throws the node's failure (isNodeFailure): the read as a whole failed, not one token.
 */
export async function readErc20(client: PublicClient, reads: Erc20Read[], blockNumber?: bigint): Promise<unknown[]> {
  return Promise.all(
    reads.map((r) =>
      client
        .readContract({
          address: r.address as Address,
          abi: erc20Abi,
          functionName: r.functionName,
          ...('args' in r ? { args: r.args } : {}),
          ...at(blockNumber),
        } as never)
        .catch((error: unknown) => {
          if (isNodeFailure(error)) throw error;
          return undefined;
        }),
    ),
  );
}

/**
 * Of `addresses`, those with contract code at `blockNumber` (eth_getCode each, one batch): the cheap
 * check before any call to an address a request names (an account without code answers nothing).
 */
export async function withCode(client: PublicClient, addresses: string[], blockNumber?: bigint): Promise<Set<string>> {
  const codes = await Promise.all(addresses.map((a) => client.getCode({ address: a as Address, ...at(blockNumber) })));
  return new Set(addresses.filter((_, i) => codes[i] !== undefined && codes[i] !== '0x'));
}

/**
 * ERC20 name, symbol and decimals of `addresses` (readErc20), as readTokenMetadata describes a token:
 * one without a readable symbol and decimals is left out, never described with guessed values.
 */
export async function describeTokens(
  client: PublicClient,
  chainId: number,
  addresses: string[],
  blockNumber?: bigint,
): Promise<TokenRow[]> {
  const fields = ['name', 'symbol', 'decimals'] as const;
  const results = await readErc20(
    client,
    addresses.flatMap((address) => fields.map((functionName) => ({ address, functionName }))),
    blockNumber,
  );
  return addresses.flatMap((address, i): TokenRow[] => {
    const [name, symbol, decimals] = results.slice(i * 3, i * 3 + 3);
    if (typeof symbol !== 'string' || decimals === undefined) return [];
    return [
      {
        chainId,
        address: address.toLowerCase(),
        name: typeof name === 'string' ? name : null,
        symbol,
        decimals: Number(decimals),
      },
    ];
  });
}
