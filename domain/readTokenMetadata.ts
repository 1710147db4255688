import type { Logger } from '../internal/logger.js';
import { erc20MetadataAbi } from './abis/erc20.js';
import type { ChainClient } from '../internal/rpc.js';
import { readBounded } from './boundedReads.js';

/** A token's ERC20 metadata as read on chain (the tokens table's metadata columns). */
export type TokenRow = { chainId: number; address: string; name: string | null; symbol: string; decimals: number };

/** Tokens per batch (3 reads each; readBounded splits a batch into calls by their gas). */
const CHUNK = 200;
/** Gas of one read: a name, a symbol or decimals of a plain ERC20 costs a few thousand. */
const METADATA_READ_GAS = 100_000n;

/**
 * ERC20 name/symbol/decimals of `addresses` on one chain, in bounded multicalls (each read at most
 * METADATA_READ_GAS: a token named by anyone's campaign that loops fails alone); a token whose
 * symbol or decimals cannot be read is left out (and logged), never stored with guessed values.
 */
export async function readTokenMetadata(
  chainClient: ChainClient,
  addresses: string[],
  logger: Logger,
): Promise<TokenRow[]> {
  const { chain } = chainClient;
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
    const results = await readBounded(chainClient, calls, { gasEach: METADATA_READ_GAS });
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
