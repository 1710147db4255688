import { parseAbi } from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { readBounded } from '../../domain/boundedReads.js';
import { tokenDbId } from '../../domain/ids.js';
import type { OpportunityUnderlying } from '../../domain/opportunityUnderlying.js';
import type { UnpricedTvlReading } from '../transform/computeMetrics.js';

const morphoAbi = parseAbi([
  'function market(bytes32 id) view returns (uint128 totalSupplyAssets, uint128 totalSupplyShares, uint128 totalBorrowAssets, uint128 totalBorrowShares, uint128 lastUpdate, uint128 fee)',
  'function idToMarketParams(bytes32 id) view returns (address loanToken, address collateralToken, address oracle, address irm, uint256 lltv)',
  'function decimals() view returns (uint8)',
]);

const NONE: UnpricedTvlReading = { method: 'NONE', tokens: [] };

/**
 * TVL inputs of Morpho Blue markets (MORPHO opportunities whose identifier is a market id) on the
 * chain's Morpho contract: the lenders' deposits, `market(id).totalSupplyAssets` (interest accrued
 * up to the market's last update), in its loan token (`idToMarketParams(id).loanToken`, then its
 * `decimals()`). A market that does not exist (lastUpdate 0) or whose reads fail gives NONE. An existing
 * market carries its loan and collateral tokens and LLTV as its `underlying` (what names the opportunity).
 * @returns opportunity id → reading.
 */
export async function readMorphoBlueTvl(
  chainClient: ChainClient,
  morpho: `0x${string}`,
  markets: { id: string; identifier: string }[],
): Promise<Map<string, UnpricedTvlReading>> {
  const readings = new Map<string, UnpricedTvlReading>();
  if (!markets.length) return readings;
  const { chain } = chainClient;
  const results = await readBounded(
    chainClient,
    markets.flatMap((m) =>
      (['market', 'idToMarketParams'] as const).map((functionName) => ({
        address: morpho,
        abi: morphoAbi,
        functionName,
        args: [m.identifier as `0x${string}`] as const,
      })),
    ),
  );
  const found: { id: string; loanToken: string; assets: bigint; underlying: OpportunityUnderlying }[] = [];
  markets.forEach((m, i) => {
    const [market, params] = [results[2 * i], results[2 * i + 1]];
    if (market?.status !== 'success' || params?.status !== 'success') {
      readings.set(m.id, NONE);
      return;
    }
    const [totalSupplyAssets, , , , lastUpdate] = market.result as readonly bigint[];
    const [loanToken, collateralToken, , , lltv] = params.result as readonly [string, string, string, string, bigint];
    if (!lastUpdate) {
      readings.set(m.id, NONE);
      return;
    }
    const loan = loanToken.toLowerCase();
    const collateral = collateralToken.toLowerCase();
    // An idle market's collateral is the zero address: no token (not the chain's native token).
    const tokens = /^0x0{40}$/.test(collateral) ? [loan] : [loan, collateral];
    const underlying = { tokens, fee: null, lltv: lltv.toString(), contract: morpho.toLowerCase() };
    found.push({ id: m.id, loanToken: loan, assets: totalSupplyAssets!, underlying });
  });
  if (!found.length) return readings;
  const decimals = await readBounded(
    chainClient,
    found.map((m) => ({
      address: m.loanToken as `0x${string}`,
      abi: morphoAbi,
      functionName: 'decimals' as const,
    })),
  );
  found.forEach((m, i) => {
    const d = decimals[i];
    readings.set(
      m.id,
      d?.status === 'success'
        ? {
            method: 'MORPHO_BLUE_SUPPLY',
            tokens: [
              {
                tokenId: tokenDbId(chain.id, m.loanToken),
                tokenAddress: m.loanToken,
                amount: m.assets.toString(),
                decimals: Number(d.result),
              },
            ],
            underlying: m.underlying,
          }
        : { ...NONE, underlying: m.underlying },
    );
  });
  return readings;
}
