import { parseAbi } from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { tokenDbId } from '../../domain/ids.js';
import type { UnpricedTvlReading } from '../transform/computeMetrics.js';
import { readUniswapV3Tvl } from './readUniswapV3Tvl.js';
import { readMorphoBlueTvl } from './readMorphoBlueTvl.js';

const tvlAbi = parseAbi([
  'function totalSupply() view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function asset() view returns (address)',
  'function totalAssets() view returns (uint256)',
]);

const isAddress = (s: string) => /^0x[0-9a-f]{40}$/.test(s);

/** Opportunity types whose identifier is a Uniswap V3 pool (campaign type 2, CLAMM). */
const UNISWAP_V3_TYPES = new Set(['CLAMM']);
/** Opportunity types whose identifier, when a 32-byte id, is a Morpho Blue market (campaign type 7). */
const MORPHO_BLUE_TYPES = new Set(['MORPHO']);

const isMarketId = (s: string) => /^0x[0-9a-f]{64}$/.test(s);

/**
 * On-chain TVL inputs of each opportunity, read the way its type says its identifier is held
 * (docs/api-behaviour.md#tvl-per-protocol), never by probing: a CLAMM pool's balances of its two
 * tokens (readUniswapV3Tvl; NONE when the identifier is not a pool); a MORPHO market id's supplied assets on the chain's Morpho Blue
 * (readMorphoBlueTvl; NONE without `morphoBlue` in the chain's config); any other identifier that
 * is a contract on this chain (a MORPHO address is a MetaMorpho vault, ERC4626): an ERC4626 vault's
 * totalAssets in its asset, else an ERC20's totalSupply (token-holding and LP-token opportunities).
 * Prices are added by the caller. Other identifiers, or failed reads, give method NONE.
 * @returns opportunity id → reading.
 */
export async function readTvl(
  chainClient: ChainClient,
  opportunities: { id: string; type: string; identifier: string }[],
): Promise<Map<string, UnpricedTvlReading>> {
  const pools = opportunities.filter((o) => UNISWAP_V3_TYPES.has(o.type));
  const markets = opportunities.filter((o) => MORPHO_BLUE_TYPES.has(o.type) && isMarketId(o.identifier));
  const readings = await readTokenTvl(
    chainClient,
    opportunities.filter((o) => !UNISWAP_V3_TYPES.has(o.type) && !markets.includes(o)),
  );
  const poolReadings = await readUniswapV3Tvl(
    chainClient,
    pools.filter((o) => isAddress(o.identifier)),
  );
  // A CLAMM identifier that is not a pool (not an address, or no token0/token1) has no TVL.
  for (const o of pools) readings.set(o.id, poolReadings.get(o.id) ?? NONE);
  const morpho = chainClient.chain.morphoBlue;
  if (morpho)
    for (const [id, reading] of await readMorphoBlueTvl(chainClient, morpho, markets)) readings.set(id, reading);
  else for (const o of markets) readings.set(o.id, NONE);
  return readings;
}

const NONE: UnpricedTvlReading = { method: 'NONE', tokens: [] };

/** ERC4626 totalAssets, else ERC20 totalSupply, of each address identifier; NONE otherwise. */
async function readTokenTvl(
  { chain, client }: ChainClient,
  opportunities: { id: string; identifier: string }[],
): Promise<Map<string, UnpricedTvlReading>> {
  const readings = new Map<string, UnpricedTvlReading>();
  const none = NONE;
  const targets = opportunities.filter((o) => isAddress(o.identifier));
  for (const o of opportunities) if (!isAddress(o.identifier)) readings.set(o.id, none);
  if (!targets.length) return readings;
  const calls = targets.flatMap((o) =>
    (['totalSupply', 'decimals', 'asset', 'totalAssets'] as const).map((functionName) => ({
      address: o.identifier as `0x${string}`,
      abi: tvlAbi,
      functionName,
    })),
  );
  const results = await client.multicall({ contracts: calls, allowFailure: true, deployless: true });
  const vaults: { id: string; asset: string; assets: bigint }[] = [];
  targets.forEach((o, i) => {
    const [supply, decimals, asset, assets] = results
      .slice(i * 4, i * 4 + 4)
      .map((r) => (r.status === 'success' ? r.result : undefined));
    if (typeof asset === 'string' && typeof assets === 'bigint')
      vaults.push({ id: o.id, asset: asset.toLowerCase(), assets });
    else if (typeof supply === 'bigint' && decimals !== undefined) {
      readings.set(o.id, {
        method: 'ERC20_TOTAL_SUPPLY',
        tokens: [
          {
            tokenId: tokenDbId(chain.id, o.identifier),
            tokenAddress: o.identifier,
            amount: supply.toString(),
            decimals: Number(decimals),
          },
        ],
      });
    } else readings.set(o.id, none);
  });
  if (vaults.length) {
    const decimals = await client.multicall({
      contracts: vaults.map((v) => ({
        address: v.asset as `0x${string}`,
        abi: tvlAbi,
        functionName: 'decimals' as const,
      })),
      allowFailure: true,
      deployless: true,
    });
    vaults.forEach((v, i) => {
      const d = decimals[i];
      readings.set(
        v.id,
        d?.status === 'success'
          ? {
              method: 'ERC4626_TOTAL_ASSETS',
              tokens: [
                {
                  tokenId: tokenDbId(chain.id, v.asset),
                  tokenAddress: v.asset,
                  amount: v.assets.toString(),
                  decimals: Number(d.result),
                },
              ],
            }
          : none,
      );
    });
  }
  return readings;
}
