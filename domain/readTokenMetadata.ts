import type { Logger } from '../internal/logger.js';
import { erc20MetadataAbi } from './abis/erc20.js';
import type { ChainClient } from '../internal/rpc.js';

/** A token's ERC20 metadata as read on chain (the tokens table's metadata columns). */
export type TokenRow = { chainId: number; address: string; name: string | null; symbol: string; decimals: number };

/** Tokens per multicall (3 calls each). */
const CHUNK = 200;

/**
 * ERC20 name/symbol/decimals of `addresses` on one chain, in deployless multicalls; a token whose
 * symbol or decimals cannot be read is left out (and logged), never stored with guessed values.
 */
export async function readTokenMetadata(
  { chain, client }: ChainClient,
  addresses: string[],
  logger: Logger,
): Promise<TokenRow[]> {
  const rows: TokenRow[] = [];
  for (let start = 0; start < addresses.length; start += CHUNK) {
    const chunk = addresses.slice(start, start + CHUNK);
    const calls = chunk.flatMap((address) =>
      (['name', 'symbol', 'decimals'] as const).map((functionName) => ({
        address: address as `0x${string}`,
        abi: erc20MetadataAbi,
        functionName,
      })),
    );
    const results = await client.multicall({ contracts: calls, allowFailure: true, deployless: true });
    chunk.forEach((address, i) => {
      const [name, symbol, decimals] = results
        .slice(i * 3, i * 3 + 3)
        .map((r) => (r.status === 'success' ? r.result : undefined));
      if (decimals === undefined || symbol === undefined) {
        logger.warn({ msg: 'token metadata unreadable; token not stored', chain_id: chain.id, token: address });
        return;
      }
      rows.push({
        chainId: chain.id,
        address: address.toLowerCase(),
        name: (name as string | undefined) ?? null,
        symbol: symbol as string,
        decimals: Number(decimals),
      });
    });
  }
  return rows;
}
