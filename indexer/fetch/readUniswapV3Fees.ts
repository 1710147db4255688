import { parseAbi } from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { readBounded } from '../../domain/boundedReads.js';
import type { UnpricedTvlReading } from '../transform/computeMetrics.js';
import { uniswapV3FeesEarned, type NativeAprReading } from '../transform/nativeApr.js';
import type { LookBack } from './lookBackADay.js';

const abi = parseAbi([
  'function feeGrowthGlobal0X128() view returns (uint256)',
  'function feeGrowthGlobal1X128() view returns (uint256)',
  'function liquidity() view returns (uint128)',
]);

const METHOD = 'UNISWAP_V3_FEES';
const GROWTHS = ['feeGrowthGlobal0X128', 'feeGrowthGlobal1X128'] as const;

/**
 * LP fees of Uniswap V3 pools over the last day (docs/api-behaviour.md#native-apr), unpriced: per token,
 * (feeGrowthGlobal{0,1}X128 at the head − at the block a day before, mod 2^256) × `liquidity()` at the
 * head >> 128 (uniswapV3FeesEarned: the in-range liquidity now stands for the day's), carried as `fees`
 * on an `ok` reading whose APR the metrics job computes once prices are known (pricedNativeApr). The
 * tokens (ids, decimals) are the pool's TVL reading's, token0 then token1. Every read bounded
 * (readBounded), the past ones at that block number. `no-history` without a block a day old, or for a
 * pool that did not answer then (deployed within the day); `read-failed` when the head reads fail.
 * @returns opportunity id → reading.
 * @throws the node's failure (no state a day old on a node that is not an archive node, unreachable).
 */
export async function readUniswapV3Fees(
  chainClient: ChainClient,
  pools: { id: string; identifier: `0x${string}` }[],
  tvl: ReadonlyMap<string, UnpricedTvlReading>,
  { head, past, detail }: LookBack,
): Promise<Map<string, NativeAprReading>> {
  const out = new Map<string, NativeAprReading>();
  if (!past) {
    for (const p of pools)
      out.set(p.id, { method: METHOD, status: 'no-history', apr: null, ...(detail ? { detail } : {}) });
    return out;
  }
  const growthCalls = pools.flatMap((p) =>
    GROWTHS.map((functionName) => ({ address: p.identifier, abi, functionName })),
  );
  const [now, before] = await Promise.all([
    readBounded(
      chainClient,
      pools.flatMap((p, i) => [
        ...growthCalls.slice(2 * i, 2 * i + 2),
        { address: p.identifier, abi, functionName: 'liquidity' },
      ]),
      { blockNumber: head.number },
    ),
    readBounded(chainClient, growthCalls, { blockNumber: BigInt(past.number) }),
  ]);
  pools.forEach((p, i) => {
    const [g0, g1, liquidity] = now.slice(3 * i, 3 * i + 3);
    const [b0, b1] = before.slice(2 * i, 2 * i + 2);
    const tokens = tvl.get(p.id)?.tokens ?? [];
    if (g0?.status !== 'success' || g1?.status !== 'success' || liquidity?.status !== 'success' || tokens.length !== 2)
      out.set(p.id, {
        method: METHOD,
        status: 'read-failed',
        apr: null,
        detail: 'fee growth or liquidity read failed',
      });
    // A pool deployed within the day has no fee growth a day ago: no history for it.
    else if (b0?.status !== 'success' || b1?.status !== 'success')
      out.set(p.id, { method: METHOD, status: 'no-history', apr: null, detail: 'no fee growth a day ago' });
    else {
      const amounts = [
        uniswapV3FeesEarned(b0.result as bigint, g0.result as bigint, liquidity.result as bigint),
        uniswapV3FeesEarned(b1.result as bigint, g1.result as bigint, liquidity.result as bigint),
      ];
      out.set(p.id, {
        method: METHOD,
        status: 'ok',
        apr: null,
        fees: {
          elapsedSeconds: head.timestamp - past.timestamp,
          tokens: tokens.map((t, j) => ({ tokenId: t.tokenId, amount: amounts[j]!.toString(), decimals: t.decimals })),
        },
      });
    }
  });
  return out;
}
