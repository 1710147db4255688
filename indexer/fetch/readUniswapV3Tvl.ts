import { parseAbi } from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { readBounded } from '../../domain/boundedReads.js';
import { tokenDbId } from '../../domain/ids.js';
import type { OpportunityUnderlying } from '../../domain/opportunityUnderlying.js';
import type { UnpricedTvlReading } from '../transform/computeMetrics.js';

const poolAbi = parseAbi([
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function balanceOf(address) view returns (uint256)',
  'function decimals() view returns (uint8)',
]);

const NONE: UnpricedTvlReading = { method: 'NONE', tokens: [] };

/**
 * TVL inputs of Uniswap V3 pools (CLAMM opportunities, identifier = pool address): the pool's
 * balance of each of its tokens (`token0()`/`token1()`, then `balanceOf(pool)` and `decimals()` of
 * each token), i.e. everything the pool holds: in-range and out-of-range positions plus uncollected
 * fees. Two bounded multicalls per chain (readBounded: each read its own gas). A pool whose reads fail
 * gives method NONE. A pool that answers `token0()`/`token1()` carries them, with its `fee()` and
 * `tickSpacing()`, as its
 * `underlying` (what names the opportunity), whether or not its balances could be read.
 * @returns opportunity id → reading.
 */
export async function readUniswapV3Tvl(
  chainClient: ChainClient,
  pools: { id: string; identifier: string }[],
): Promise<Map<string, UnpricedTvlReading>> {
  const readings = new Map<string, UnpricedTvlReading>();
  if (!pools.length) return readings;
  const { chain } = chainClient;
  const tokenResults = await readBounded(
    chainClient,
    pools.flatMap((p) =>
      (['token0', 'token1', 'fee', 'tickSpacing'] as const).map((functionName) => ({
        address: p.identifier as `0x${string}`,
        abi: poolAbi,
        functionName,
      })),
    ),
  );
  const resolved: { id: string; pool: string; tokens: [string, string]; underlying: OpportunityUnderlying }[] = [];
  pools.forEach((p, i) => {
    const [t0, t1, fee, tickSpacing] = tokenResults.slice(4 * i, 4 * i + 4);
    if (t0?.status === 'success' && t1?.status === 'success') {
      const tokens: [string, string] = [String(t0.result).toLowerCase(), String(t1.result).toLowerCase()];
      resolved.push({
        id: p.id,
        pool: p.identifier,
        tokens,
        underlying: {
          tokens,
          fee: fee?.status === 'success' ? Number(fee.result) : null,
          lltv: null,
          contract: p.identifier.toLowerCase(),
          tickSpacing: tickSpacing?.status === 'success' ? Number(tickSpacing.result) : null,
          hooks: null,
        },
      });
    } else readings.set(p.id, NONE);
  });
  if (!resolved.length) return readings;
  const amounts = await readBounded(
    chainClient,
    resolved.flatMap((p) =>
      p.tokens.flatMap((token) => [
        {
          address: token as `0x${string}`,
          abi: poolAbi,
          functionName: 'balanceOf' as const,
          args: [p.pool as `0x${string}`] as const,
        },
        { address: token as `0x${string}`, abi: poolAbi, functionName: 'decimals' as const },
      ]),
    ),
  );
  resolved.forEach((p, i) => {
    const tokens = p.tokens.map((token, j) => {
      const [balance, decimals] = [amounts[4 * i + 2 * j], amounts[4 * i + 2 * j + 1]];
      return balance?.status === 'success' && decimals?.status === 'success'
        ? {
            tokenId: tokenDbId(chain.id, token),
            tokenAddress: token,
            amount: (balance.result as bigint).toString(),
            decimals: Number(decimals.result),
          }
        : null;
    });
    readings.set(
      p.id,
      tokens.every((t) => t !== null)
        ? { method: 'UNISWAP_V3_POOL', tokens: tokens as NonNullable<(typeof tokens)[0]>[], underlying: p.underlying }
        : { ...NONE, underlying: p.underlying },
    );
  });
  return readings;
}
