import { parseAbi } from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { readBounded } from '../../domain/boundedReads.js';
import { tokenDbId } from '../../domain/ids.js';
import type { UnpricedTvlReading } from '../transform/computeMetrics.js';

const aTokenAbi = parseAbi([
  'function UNDERLYING_ASSET_ADDRESS() view returns (address)',
  'function POOL() view returns (address)',
  'function totalSupply() view returns (uint256)',
  'function decimals() view returns (uint8)',
]);

/** Gas of each read: views of one contract (totalSupply asks the pool for its reserve's normalized income). */
export const AAVE_READ_GAS = 150_000n;

/**
 * TVL inputs of Aave V3 lending receipts: of the given ERC20 opportunities, those whose identifier
 * answers as an aToken (`UNDERLYING_ASSET_ADDRESS()` and `POOL()`) are worth the aToken's
 * `totalSupply()` (scaled supply × the reserve's normalized income: what the lenders deposited plus
 * accrued interest) in units of the underlying, priced as the underlying (one TOKEN breakdown in it;
 * the underlying's `decimals()`). Others are left out of the result (they keep their ERC20 reading).
 * @returns opportunity id → reading, for the aTokens only.
 */
export async function readAaveV3Tvl(
  chainClient: ChainClient,
  opportunities: { id: string; identifier: string; supply: string }[],
): Promise<Map<string, UnpricedTvlReading>> {
  const { chain } = chainClient;
  const readings = new Map<string, UnpricedTvlReading>();
  if (!opportunities.length) return readings;
  // Bounded multicalls (readBounded: each read its own gas, a looping target fails alone).
  // The aToken's totalSupply is the ERC20 reading's (`supply`): not read again.
  const FIELDS = ['UNDERLYING_ASSET_ADDRESS', 'POOL'] as const;
  const first = await readBounded(
    chainClient,
    opportunities.flatMap((o) =>
      FIELDS.map((functionName) => ({ address: o.identifier, abi: aTokenAbi, functionName })),
    ),
    { gasEach: AAVE_READ_GAS },
  );
  const value = (i: number) => (first[i]?.status === 'success' ? first[i].result : undefined);
  const found = opportunities.flatMap((o, i) => {
    const [underlying, pool] = [value(2 * i), value(2 * i + 1)];
    return typeof underlying === 'string' && typeof pool === 'string'
      ? [{ o, underlying: underlying.toLowerCase() }]
      : [];
  });
  const decimals = await readBounded(
    chainClient,
    found.map((a) => ({ address: a.underlying, abi: aTokenAbi, functionName: 'decimals' })),
    { gasEach: AAVE_READ_GAS },
  );
  found.forEach((a, i) => {
    const d = decimals[i]?.status === 'success' ? decimals[i].result : undefined;
    // An aToken whose underlying's decimals cannot be read is unknown, never its receipt's ERC20 value.
    readings.set(
      a.o.id,
      d !== undefined
        ? {
            method: 'AAVE_V3_ATOKEN',
            tokens: [
              {
                tokenId: tokenDbId(chain.id, a.underlying),
                tokenAddress: a.underlying,
                amount: a.o.supply,
                decimals: Number(d),
              },
            ],
          }
        : { method: 'NONE', tokens: [], reason: 'read-failed' },
    );
  });
  return readings;
}
