import { parseAbi } from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { tokenDbId } from '../../domain/ids.js';
import type { TvlReading } from '../transform/computeMetrics.js';

const tvlAbi = parseAbi([
  'function totalSupply() view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function asset() view returns (address)',
  'function totalAssets() view returns (uint256)',
]);

const isAddress = (s: string) => /^0x[0-9a-f]{40}$/.test(s);

/**
 * On-chain TVL inputs of each opportunity whose identifier is a contract on this chain: an ERC4626
 * vault's totalAssets in its asset, else an ERC20's totalSupply (token-holding and LP-token
 * opportunities). Prices are added by the caller. Identifiers that are not addresses, or whose
 * reads fail, give method NONE.
 * @returns opportunity id → reading.
 */
export async function readTvl(
  { chain, client }: ChainClient,
  opportunities: { id: string; identifier: string }[],
): Promise<Map<string, Omit<TvlReading, 'price'>>> {
  const readings = new Map<string, Omit<TvlReading, 'price'>>();
  const none = { method: 'NONE' as const, tokenId: null, tokenAddress: null, amount: null, decimals: null };
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
        tokenId: tokenDbId(chain.id, o.identifier),
        tokenAddress: o.identifier,
        amount: supply.toString(),
        decimals: Number(decimals),
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
              tokenId: tokenDbId(chain.id, v.asset),
              tokenAddress: v.asset,
              amount: v.assets.toString(),
              decimals: Number(d.result),
            }
          : none,
      );
    });
  }
  return readings;
}
