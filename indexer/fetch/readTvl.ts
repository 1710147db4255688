import { parseAbi } from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { readBounded } from '../../domain/boundedReads.js';
import { tokenDbId } from '../../domain/ids.js';
import type { UnpricedTvlReading } from '../transform/computeMetrics.js';
import { readUniswapV3Tvl } from './readUniswapV3Tvl.js';
import { readMorphoBlueTvl } from './readMorphoBlueTvl.js';
import { readAaveV3Tvl } from './readAaveV3Tvl.js';
import { readUniswapV4Tvl } from './readUniswapV4Tvl.js';

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
/** Opportunity types whose identifier, when a 32-byte id, is a Uniswap V4 pool (campaign type 13). */
const UNISWAP_V4_TYPES = new Set(['UNISWAP_V4']);

/** A 32-byte id (a Morpho market's, a Uniswap V4 pool's): a hash, never an address. */
const isMarketId = (s: string) => /^0x[0-9a-f]{64}$/.test(s);

/**
 * On-chain TVL inputs of each opportunity, read the way its type says its identifier is held
 * (docs/api-behaviour.md#tvl-per-protocol), never by probing: a CLAMM pool's balances of its two
 * tokens (readUniswapV3Tvl; NONE when the identifier is not a pool); a MORPHO market id's supplied
 * assets on the chain's Morpho Blue (readMorphoBlueTvl; NONE without `morphoBlue` in the chain's
 * config); a UNISWAP_V4 pool id's reserves on the chain's PoolManager (readUniswapV4Tvl; NONE without
 * `uniswapV4PoolManager`); any other identifier that
 * is a contract on this chain (a MORPHO address is a MetaMorpho vault, ERC4626): an ERC4626 vault's
 * totalAssets in its asset, else an ERC20's totalSupply (token-holding and LP-token opportunities),
 * an Aave V3 aToken's in its underlying (readAaveV3Tvl). Prices are added by the caller. Other
 * identifiers give method NONE with reason `unsupported-target`, failed reads NONE (`read-failed`).
 * @returns opportunity id → reading.
 */
export async function readTvl(
  chainClient: ChainClient,
  opportunities: { id: string; type: string; identifier: string }[],
): Promise<Map<string, UnpricedTvlReading>> {
  const pools = opportunities.filter((o) => UNISWAP_V3_TYPES.has(o.type));
  const markets = opportunities.filter((o) => MORPHO_BLUE_TYPES.has(o.type) && isMarketId(o.identifier));
  const v4Pools = opportunities.filter((o) => UNISWAP_V4_TYPES.has(o.type) && isMarketId(o.identifier));
  const readings = await readTokenTvl(
    chainClient,
    opportunities.filter((o) => !UNISWAP_V3_TYPES.has(o.type) && !markets.includes(o) && !v4Pools.includes(o)),
  );
  const poolReadings = await readUniswapV3Tvl(
    chainClient,
    pools.filter((o) => isAddress(o.identifier)),
  );
  // A CLAMM identifier that is not a pool: not an address (unsupported-target), or no token0/token1 (read-failed).
  for (const o of pools) readings.set(o.id, isAddress(o.identifier) ? (poolReadings.get(o.id) ?? NONE) : UNSUPPORTED);
  const morpho = chainClient.chain.morphoBlue;
  if (morpho)
    for (const [id, reading] of await readMorphoBlueTvl(chainClient, morpho, markets)) readings.set(id, reading);
  else for (const o of markets) readings.set(o.id, UNSUPPORTED);
  const poolManager = chainClient.chain.uniswapV4PoolManager;
  if (poolManager)
    for (const [id, reading] of await readUniswapV4Tvl(chainClient, poolManager, v4Pools)) readings.set(id, reading);
  else for (const o of v4Pools) readings.set(o.id, UNSUPPORTED);
  // An ERC20 that answers as an Aave V3 aToken is valued in its underlying (#42), its supply as read.
  const held = opportunities.flatMap((o) => {
    const r = readings.get(o.id);
    return r?.method === 'ERC20_TOTAL_SUPPLY' ? [{ ...o, supply: r.tokens[0]!.amount }] : [];
  });
  for (const [id, reading] of await readAaveV3Tvl(chainClient, held)) readings.set(id, reading);
  return readings;
}

/** A read that failed (reverted, no such contract): tvlRecord.status `read-failed`. */
const NONE: UnpricedTvlReading = { method: 'NONE', tokens: [] };
/** An identifier its type cannot be read from on this chain: tvlRecord.status `unsupported-target`. */
const UNSUPPORTED: UnpricedTvlReading = { method: 'NONE', tokens: [], reason: 'unsupported-target' };

/** ERC4626 totalAssets, else ERC20 totalSupply, of each address identifier; NONE otherwise. */
async function readTokenTvl(
  chainClient: ChainClient,
  opportunities: { id: string; identifier: string }[],
): Promise<Map<string, UnpricedTvlReading>> {
  const { chain } = chainClient;
  const readings = new Map<string, UnpricedTvlReading>();
  const targets = opportunities.filter((o) => isAddress(o.identifier));
  for (const o of opportunities) if (!isAddress(o.identifier)) readings.set(o.id, UNSUPPORTED);
  if (!targets.length) return readings;
  const calls = targets.flatMap((o) =>
    (['totalSupply', 'decimals', 'asset', 'totalAssets'] as const).map((functionName) => ({
      address: o.identifier as `0x${string}`,
      abi: tvlAbi,
      functionName,
    })),
  );
  const results = await readBounded(chainClient, calls);
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
    } else readings.set(o.id, NONE);
  });
  if (vaults.length) {
    const decimals = await readBounded(
      chainClient,
      vaults.map((v) => ({
        address: v.asset as `0x${string}`,
        abi: tvlAbi,
        functionName: 'decimals' as const,
      })),
    );
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
          : NONE,
      );
    });
  }
  return readings;
}
