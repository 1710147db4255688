import { parseAbi } from 'viem';
import type { ChainClient } from '../../internal/rpc.js';
import { readBounded } from '../../domain/boundedReads.js';
import type { UnpricedTvlReading } from '../transform/computeMetrics.js';
import { morphoSupplyApr, shareGrowthApr, type NativeAprReading } from '../transform/nativeApr.js';
import { lookBackADay, type BlockAt, type LookBack } from './lookBackADay.js';
import { readUniswapV3Fees } from './readUniswapV3Fees.js';

export type { BlockAt } from './lookBackADay.js';

const abi = parseAbi([
  'function market(bytes32 id) view returns (uint128 totalSupplyAssets, uint128 totalSupplyShares, uint128 totalBorrowAssets, uint128 totalBorrowShares, uint128 lastUpdate, uint128 fee)',
  'function idToMarketParams(bytes32 id) view returns (address loanToken, address collateralToken, address oracle, address irm, uint256 lltv)',
  'struct MarketParams { address loanToken; address collateralToken; address oracle; address irm; uint256 lltv; }',
  'struct Market { uint128 totalSupplyAssets; uint128 totalSupplyShares; uint128 totalBorrowAssets; uint128 totalBorrowShares; uint128 lastUpdate; uint128 fee; }',
  'function borrowRateView(MarketParams marketParams, Market market) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
]);

const ZERO = '0x0000000000000000000000000000000000000000';
const UNSUPPORTED: NativeAprReading = { method: 'NONE', status: 'unsupported-target', apr: null };
const FAILED = (method: NativeAprReading['method'], detail?: string): NativeAprReading => ({
  method,
  status: 'read-failed',
  apr: null,
  ...(detail ? { detail } : {}),
});

/**
 * Native APR of each opportunity from the protocol's own reads (docs/api-behaviour.md#native-apr), by what
 * its TVL reading found it to be: a Morpho Blue market (`MORPHO_BLUE_SUPPLY`) → its supply APR from
 * `market(id)` and its IRM's `borrowRateView` (morphoSupplyApr); an ERC4626 vault (`ERC4626_TOTAL_ASSETS`)
 * → its share-price growth since the stored block (`blocks`, via `blockAt`) latest a day before the head
 * (shareGrowthApr; `no-history` without one, or when the latest is over two days old: lookBackADay); a
 * Uniswap V3 pool (`UNISWAP_V3_POOL`) → its LP fees over the same day, unpriced (readUniswapV3Fees; the
 * metrics job prices them into an APR, pricedNativeApr); any other reading → `unsupported-target` (not
 * read); a failed TVL read → `read-failed`. Every read is bounded (readBounded), the past ones at that
 * block number.
 * @returns opportunity id → reading.
 * @throws the node's failure of the Morpho reads (the caller marks the chain's opportunities read-failed); a
 *   failure of the day-old reads (a node without a day-old state) marks only the vaults and pools read-failed.
 */
export async function readNativeApr(
  chainClient: ChainClient,
  opportunities: { id: string; identifier: string }[],
  tvl: ReadonlyMap<string, UnpricedTvlReading>,
  blockAt: BlockAt,
): Promise<Map<string, NativeAprReading>> {
  const out = new Map<string, NativeAprReading>();
  const markets: { id: string; identifier: `0x${string}` }[] = [];
  const vaults: { id: string; identifier: `0x${string}` }[] = [];
  const pools: { id: string; identifier: `0x${string}` }[] = [];
  for (const o of opportunities) {
    const method = tvl.get(o.id)?.method;
    if (method === 'MORPHO_BLUE_SUPPLY') markets.push({ id: o.id, identifier: o.identifier as `0x${string}` });
    else if (method === 'ERC4626_TOTAL_ASSETS') vaults.push({ id: o.id, identifier: o.identifier as `0x${string}` });
    else if (method === 'UNISWAP_V3_POOL') pools.push({ id: o.id, identifier: o.identifier as `0x${string}` });
    // No TVL reading (the chain's reads failed) or a failed one: read-failed; a target its type cannot be read from, or a type not read: unsupported-target.
    else
      out.set(
        o.id,
        !method || (method === 'NONE' && tvl.get(o.id)?.reason !== 'unsupported-target') ? FAILED('NONE') : UNSUPPORTED,
      );
  }
  const morpho = chainClient.chain.morphoBlue;
  if (markets.length && morpho) for (const [id, r] of await readMorpho(chainClient, morpho, markets)) out.set(id, r);
  else for (const m of markets) out.set(m.id, UNSUPPORTED);
  if (!vaults.length && !pools.length) return out;
  // One look-back for the vaults and the pools: the same head, the same block a day before it.
  const back = lookBackADay(chainClient, blockAt);
  back.catch(() => {}); // awaited (and its failure handled) by each reader below
  // A node without the state of a day ago (not an archive node) fails these reads, not the markets'.
  const dayOld = async (
    targets: typeof vaults,
    method: NativeAprReading['method'],
    read: (b: LookBack) => Promise<Map<string, NativeAprReading>>,
  ) => {
    if (!targets.length) return;
    try {
      for (const [id, r] of await read(await back)) out.set(id, r);
    } catch (error) {
      const detail = `${method} reads failed: ${(error as Error).message.split('\n')[0]}`;
      for (const t of targets) out.set(t.id, FAILED(method, detail));
    }
  };
  await Promise.all([
    dayOld(vaults, 'ERC4626_SHARE_PRICE', (b) => readVaults(chainClient, vaults, b)),
    dayOld(pools, 'UNISWAP_V3_FEES', (b) => readUniswapV3Fees(chainClient, pools, tvl, b)),
  ]);
  return out;
}

async function readMorpho(
  chainClient: ChainClient,
  morpho: `0x${string}`,
  markets: { id: string; identifier: `0x${string}` }[],
): Promise<Map<string, NativeAprReading>> {
  const out = new Map<string, NativeAprReading>();
  const results = await readBounded(
    chainClient,
    markets.flatMap((m) =>
      (['market', 'idToMarketParams'] as const).map((functionName) => ({
        address: morpho,
        abi,
        functionName,
        args: [m.identifier] as const,
      })),
    ),
  );
  type Found = { id: string; state: readonly bigint[]; params: readonly [string, string, string, string, bigint] };
  const found: Found[] = [];
  markets.forEach((m, i) => {
    const [market, params] = [results[2 * i], results[2 * i + 1]];
    if (market?.status !== 'success' || params?.status !== 'success') out.set(m.id, FAILED('MORPHO_BLUE_SUPPLY_RATE'));
    // A market Morpho does not know (lastUpdate 0) answers zeros: no rate, not a rate of 0.
    else if (!(market.result as readonly bigint[])[4])
      out.set(m.id, FAILED('MORPHO_BLUE_SUPPLY_RATE', 'no such market'));
    else found.push({ id: m.id, state: market.result as readonly bigint[], params: params.result as Found['params'] });
  });
  // A market without an IRM (address zero) charges no interest: a known 0.
  const withIrm = found.filter((f) => f.params[3].toLowerCase() !== ZERO);
  const rates = await readBounded(
    chainClient,
    withIrm.map((f) => {
      const [loanToken, collateralToken, oracle, irm, lltv] = f.params;
      const [totalSupplyAssets, totalSupplyShares, totalBorrowAssets, totalBorrowShares, lastUpdate, fee] = f.state;
      return {
        address: irm,
        abi,
        functionName: 'borrowRateView',
        args: [
          { loanToken, collateralToken, oracle, irm, lltv },
          { totalSupplyAssets, totalSupplyShares, totalBorrowAssets, totalBorrowShares, lastUpdate, fee },
        ],
      };
    }),
  );
  for (const f of found) {
    const i = withIrm.indexOf(f);
    const rate = i < 0 ? ({ status: 'success', result: 0n } as const) : rates[i]!;
    const [totalSupplyAssets, , totalBorrowAssets, , , fee] = f.state;
    out.set(
      f.id,
      rate.status === 'success'
        ? {
            method: 'MORPHO_BLUE_SUPPLY_RATE',
            status: 'ok',
            apr: morphoSupplyApr(rate.result as bigint, totalSupplyAssets!, totalBorrowAssets!, fee!),
          }
        : FAILED('MORPHO_BLUE_SUPPLY_RATE', 'borrowRateView failed'),
    );
  }
  return out;
}

async function readVaults(
  chainClient: ChainClient,
  vaults: { id: string; identifier: `0x${string}` }[],
  { head, past, detail }: LookBack,
): Promise<Map<string, NativeAprReading>> {
  const out = new Map<string, NativeAprReading>();
  const now = head.timestamp;
  if (!past) {
    for (const v of vaults)
      out.set(v.id, { method: 'ERC4626_SHARE_PRICE', status: 'no-history', apr: null, ...(detail ? { detail } : {}) });
    return out;
  }
  const decimals = await readBounded(
    chainClient,
    vaults.map((v) => ({ address: v.identifier, abi, functionName: 'decimals' })),
    { blockNumber: head.number },
  );
  const ok = vaults.flatMap((v, i) => {
    const d = decimals[i];
    if (d?.status !== 'success') {
      out.set(v.id, FAILED('ERC4626_SHARE_PRICE', 'decimals failed'));
      return [];
    }
    return [{ ...v, unit: 10n ** BigInt(d.result as number) }];
  });
  const calls = ok.map((v) => ({ address: v.identifier, abi, functionName: 'convertToAssets', args: [v.unit] }));
  const [after, before] = await Promise.all([
    readBounded(chainClient, calls, { blockNumber: head.number }),
    readBounded(chainClient, calls, { blockNumber: BigInt(past.number) }),
  ]);
  ok.forEach((v, i) => {
    const [a, b] = [after[i], before[i]];
    // A vault deployed within the day has no share price a day ago: no history for it.
    if (b?.status !== 'success') {
      out.set(v.id, {
        method: 'ERC4626_SHARE_PRICE',
        status: 'no-history',
        apr: null,
        detail: 'no share price a day ago',
      });
      return;
    }
    const apr =
      a?.status === 'success' ? shareGrowthApr(b.result as bigint, a.result as bigint, now - past.timestamp) : null;
    out.set(v.id, apr === null ? FAILED('ERC4626_SHARE_PRICE') : { method: 'ERC4626_SHARE_PRICE', status: 'ok', apr });
  });
  return out;
}
