import { decodeFunctionResult, encodeFunctionData, parseAbi, type Hex } from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { tokenDbId } from '../../domain/ids.js';
import type { UnpricedTvlReading } from '../transform/computeMetrics.js';

const aTokenAbi = parseAbi([
  'function UNDERLYING_ASSET_ADDRESS() view returns (address)',
  'function POOL() view returns (address)',
  'function totalSupply() view returns (uint256)',
  'function decimals() view returns (uint8)',
]);

/**
 * Gas limit of each eth_call of these reads: views of one contract (totalSupply asks the pool for its
 * reserve's normalized income, one more view). Sent as single eth_calls (one JSON-RPC batch) rather
 * than through Multicall3, whose aggregate3 forwards 63/64 of the gas left to each call, so one
 * looping target would eat the batch (as api/chain/readChain.ts, issue #43 F1).
 */
export const AAVE_READ_GAS = 150_000n;

type ATokenFunction = 'UNDERLYING_ASSET_ADDRESS' | 'POOL' | 'totalSupply' | 'decimals';

/** One view call with the gas limit; undefined when it reverts or answers something undecodable. */
async function view(client: ChainClient['client'], address: string, functionName: ATokenFunction) {
  try {
    const { data } = await client.call({
      to: address as Hex,
      data: encodeFunctionData({ abi: aTokenAbi, functionName }),
      gas: AAVE_READ_GAS,
    });
    if (!data || data === '0x') return undefined;
    return decodeFunctionResult({ abi: aTokenAbi, functionName, data }) as string | bigint | number;
  } catch {
    return undefined;
  }
}

/**
 * TVL inputs of Aave V3 lending receipts: of the given ERC20 opportunities, those whose identifier
 * answers as an aToken (`UNDERLYING_ASSET_ADDRESS()` and `POOL()`) are worth the aToken's
 * `totalSupply()` (scaled supply × the reserve's normalized income: what the lenders deposited plus
 * accrued interest) in units of the underlying, priced as the underlying (one TOKEN breakdown in it;
 * the underlying's `decimals()`). Others are left out of the result (they keep their ERC20 reading).
 * @returns opportunity id → reading, for the aTokens only.
 */
export async function readAaveV3Tvl(
  { chain, client }: ChainClient,
  opportunities: { id: string; identifier: string }[],
): Promise<Map<string, UnpricedTvlReading>> {
  const readings = new Map<string, UnpricedTvlReading>();
  const answers = await Promise.all(
    opportunities.map(async (o) => {
      const [underlying, pool, supply] = await Promise.all(
        (['UNDERLYING_ASSET_ADDRESS', 'POOL', 'totalSupply'] as const).map((f) => view(client, o.identifier, f)),
      );
      if (typeof underlying !== 'string' || typeof pool !== 'string') return null;
      const decimals = await view(client, underlying, 'decimals');
      return { o, underlying: underlying.toLowerCase(), supply, decimals };
    }),
  );
  for (const a of answers) {
    if (!a) continue;
    // An aToken whose supply or underlying cannot be read is unknown, never its receipt's ERC20 value.
    readings.set(
      a.o.id,
      typeof a.supply === 'bigint' && a.decimals !== undefined
        ? {
            method: 'AAVE_V3_ATOKEN',
            tokens: [
              {
                tokenId: tokenDbId(chain.id, a.underlying),
                tokenAddress: a.underlying,
                amount: a.supply.toString(),
                decimals: Number(a.decimals),
              },
            ],
          }
        : { method: 'NONE', tokens: [], reason: 'read-failed' },
    );
  }
  return readings;
}
