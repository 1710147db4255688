import { expect } from 'chai';
import { maxUint256, type Address } from 'viem';
import { startDevnetOnFreePort, type Devnet } from '../../../../contracts/devnet.js';
import { confirmed as send, createDevnetClients, type DevnetClients } from '../../../../contracts/clients.js';
import {
  shareVaultStandInAbi,
  shareVaultStandInBytecode,
  testErc20Abi,
  testErc20Bytecode,
} from '../../../../contracts/artifacts/index.js';
import { oracleMockAbi } from '../../../../contracts/artifacts/morpho-blue/index.js';
import { deployMorphoBlueMarket, morphoAbi, type DeployedMorphoBlueMarket } from '../../../../contracts/morphoBlue.js';
import { readNativeApr } from '../../../../indexer/fetch/readNativeApr.js';
import { readUniswapV3Tvl } from '../../../../indexer/fetch/readUniswapV3Tvl.js';
import type { ChainClient } from '../../../../internal/rpc.js';
import { tvlUsdOf, type UnpricedTvlReading } from '../../../../indexer/transform/computeMetrics.js';
import { pricedNativeApr } from '../../../../indexer/transform/nativeApr.js';
import type { StoredPrice } from '../../../../domain/prices.js';
import {
  deployUniswapV3Pool,
  swapUniswapV3ExactIn,
  type DeployedUniswapV3Pool,
} from '../../../../contracts/uniswapV3.js';

const CHAIN_ID = 31337;
const WAD = 10n ** 18n;
const YEAR = 365n * 86_400n;

describe('indexer/fetch/readNativeApr: a Morpho Blue market’s supply APR from its IRM (#42)', function () {
  let devnet: Devnet;
  let clients: DevnetClients;
  let market: DeployedMorphoBlueMarket;
  let chainClient: ChainClient;
  const MORPHO: UnpricedTvlReading = { method: 'MORPHO_BLUE_SUPPLY', tokens: [] };
  const noBlocks = async () => null;

  before(async function () {
    devnet = await startDevnetOnFreePort({ chainId: CHAIN_ID });
    clients = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID });
    const { walletClient: wallet, publicClient, account } = clients;
    const token = async (symbol: string) =>
      (
        await send(
          clients,
          wallet.deployContract({ abi: testErc20Abi, bytecode: testErc20Bytecode, args: [symbol, symbol, 6] }),
        )
      ).contractAddress! as Address;
    const [loan, collateral] = [await token('LOAN'), await token('COLL')];
    market = await deployMorphoBlueMarket({
      rpcUrl: devnet.rpcUrl,
      chainId: CHAIN_ID,
      loanToken: loan,
      collateralToken: collateral,
      supplyAssets: 250_000n * 10n ** 6n,
    });
    const { morpho, marketParams } = market;
    const write = (address: Address, abi: never, functionName: string, args: readonly unknown[]) =>
      send(clients, wallet.writeContract({ address, abi, functionName, args } as never));
    // One collateral unit is worth one loan unit (Morpho's oracle scale 1e36); a 10% fee; 100 000 borrowed.
    await write(marketParams.oracle, oracleMockAbi as never, 'setPrice', [10n ** 36n]);
    await write(morpho, morphoAbi as never, 'setFee', [marketParams, WAD / 10n]);
    await write(collateral, testErc20Abi as never, 'mint', [account.address, 1_000_000n * 10n ** 6n]);
    await write(collateral, testErc20Abi as never, 'approve', [morpho, maxUint256]);
    await write(morpho, morphoAbi as never, 'supplyCollateral', [
      marketParams,
      1_000_000n * 10n ** 6n,
      account.address,
      '0x',
    ]);
    await write(morpho, morphoAbi as never, 'borrow', [
      marketParams,
      100_000n * 10n ** 6n,
      0n,
      account.address,
      account.address,
    ]);
    chainClient = {
      chain: { id: CHAIN_ID, morphoBlue: morpho.toLowerCase() } as unknown as ChainClient['chain'],
      client: publicClient as unknown as ChainClient['client'],
    };
  });

  after(async () => {
    await devnet?.stop();
  });

  it('reads borrow rate × utilization × (1 − fee) per year, as computed independently from the market state', async () => {
    const readings = await readNativeApr(
      chainClient,
      [{ id: 'm', identifier: market.marketId }],
      new Map([['m', MORPHO]]),
      noBlocks,
    );
    const r = readings.get('m')!;
    expect(r).to.include({ method: 'MORPHO_BLUE_SUPPLY_RATE', status: 'ok' });
    // Independently: IrmMock's rate is utilization (WAD, rounded down) / 365 days, per second.
    const state = (await clients.publicClient.readContract({
      address: market.morpho,
      abi: morphoAbi,
      functionName: 'market',
      args: [market.marketId],
    })) as readonly bigint[];
    const [supply, , borrow, , , fee] = state;
    expect(fee).to.equal(WAD / 10n);
    expect(borrow! > 0n).to.equal(true);
    const borrowRate = (borrow! * WAD) / supply! / YEAR;
    const supplyRatePerSecond = (((borrowRate * borrow! * WAD) / supply!) * (WAD - fee!)) / WAD / WAD; // WAD
    const expected = (Number(supplyRatePerSecond * YEAR) / 1e18) * 100;
    // 0.4 utilization → 40% borrow rate → 0.4 × 40% × 0.9 = 14.4%.
    expect(expected).to.be.closeTo(14.4, 0.01);
    expect(r.apr).to.be.closeTo(expected, 1e-6);
  });

  it('says why it is unknown: a market that does not exist, a chain without Morpho, a type not read', async () => {
    const noMarket = `0x${'ab'.repeat(32)}` as const;
    const readings = await readNativeApr(
      chainClient,
      [
        { id: 'missing', identifier: noMarket },
        { id: 'erc20', identifier: market.marketParams.loanToken.toLowerCase() },
        { id: 'failed', identifier: market.marketParams.loanToken.toLowerCase() },
      ],
      new Map<string, UnpricedTvlReading>([
        ['missing', MORPHO],
        ['erc20', { method: 'ERC20_TOTAL_SUPPLY', tokens: [] }],
        ['failed', { method: 'NONE', tokens: [] }],
      ]),
      noBlocks,
    );
    // A market id Morpho does not know answers zeros (no IRM, lastUpdate 0): unknown, never a known 0.
    expect(readings.get('missing')).to.include({ status: 'read-failed', apr: null });
    expect(readings.get('erc20')).to.include({ status: 'unsupported-target', apr: null });
    expect(readings.get('failed')).to.include({ status: 'read-failed', apr: null });
    const withoutMorpho = await readNativeApr(
      { ...chainClient, chain: { id: CHAIN_ID } as unknown as ChainClient['chain'] },
      [{ id: 'm', identifier: market.marketId }],
      new Map([['m', MORPHO]]),
      noBlocks,
    );
    expect(withoutMorpho.get('m')).to.include({ status: 'unsupported-target', apr: null });
  });
});

describe('indexer/fetch/readNativeApr: an ERC4626 vault’s share-price growth over the last day (#42)', function () {
  let devnet: Devnet;
  let clients: DevnetClients;
  let vault: Address;
  let chainClient: ChainClient;
  let dayAgo: { number: number; timestamp: number };
  const VAULT: UnpricedTvlReading = { method: 'ERC4626_TOTAL_ASSETS', tokens: [] };

  before(async function () {
    devnet = await startDevnetOnFreePort({ chainId: CHAIN_ID });
    clients = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID });
    const { walletClient: wallet, publicClient } = clients;
    const asset = (
      await send(
        clients,
        wallet.deployContract({ abi: testErc20Abi, bytecode: testErc20Bytecode, args: ['A', 'A', 6] }),
      )
    ).contractAddress! as Address;
    // 1 000 shares (18 decimals) worth 1 000 assets: a share price of 1.
    vault = (
      await send(
        clients,
        wallet.deployContract({
          abi: shareVaultStandInAbi,
          bytecode: shareVaultStandInBytecode,
          args: [asset, 18, 1000n * WAD, 1000n * 10n ** 6n],
        }),
      )
    ).contractAddress! as Address;
    const block = await publicClient.getBlock({ blockTag: 'latest' });
    dayAgo = { number: Number(block.number), timestamp: Number(block.timestamp) };
    // A day (and a minute) later the vault holds 0.1% more: 0.1% a day, 36.5% a year (simple).
    await publicClient.request({ method: 'evm_increaseTime' as never, params: [86_460] as never });
    await send(
      clients,
      wallet.writeContract({
        address: vault,
        abi: shareVaultStandInAbi,
        functionName: 'setTotalAssets',
        args: [1001n * 10n ** 6n],
      }),
    );
    chainClient = {
      chain: { id: CHAIN_ID } as unknown as ChainClient['chain'],
      client: publicClient as unknown as ChainClient['client'],
    };
  });

  after(async () => {
    await devnet?.stop();
  });

  it('is the growth of convertToAssets(1 share) since the stored block a day old, × year / elapsed × 100', async () => {
    const head = await clients.publicClient.getBlock({ blockTag: 'latest' });
    const asked: number[] = [];
    const readings = await readNativeApr(
      chainClient,
      [{ id: 'v', identifier: vault.toLowerCase() }],
      new Map([['v', VAULT]]),
      async (_chainId, t) => {
        asked.push(t);
        return dayAgo;
      },
    );
    expect(asked).to.deep.equal([Number(head.timestamp) - 86_400]);
    const elapsed = Number(head.timestamp) - dayAgo.timestamp;
    expect(elapsed).to.be.within(86_400, 86_500);
    const r = readings.get('v')!;
    expect(r).to.include({ method: 'ERC4626_SHARE_PRICE', status: 'ok' });
    expect(r.apr).to.be.closeTo(((0.001 * 365 * 86_400) / elapsed) * 100, 1e-9);
    expect(r.apr).to.be.closeTo(36.5, 0.05);
  });

  it('is no-history without a stored block a day old, never a growth of 0', async () => {
    const readings = await readNativeApr(
      chainClient,
      [{ id: 'v', identifier: vault.toLowerCase() }],
      new Map([['v', VAULT]]),
      async () => null,
    );
    expect(readings.get('v')).to.include({ method: 'ERC4626_SHARE_PRICE', status: 'no-history', apr: null });
  });

  it('is read-failed when the node cannot read at the past block (no such state), the other readings kept', async () => {
    const head = await clients.publicClient.getBlock({ blockTag: 'latest' });
    const readings = await readNativeApr(
      chainClient,
      [
        { id: 'v', identifier: vault.toLowerCase() },
        { id: 'e', identifier: vault.toLowerCase() },
      ],
      new Map<string, UnpricedTvlReading>([
        ['v', VAULT],
        ['e', { method: 'ERC20_TOTAL_SUPPLY', tokens: [] }],
      ]),
      // A block the node does not have: its eth_call fails as a whole.
      async () => ({ number: 1_000_000_000, timestamp: Number(head.timestamp) - 86_400 }),
    );
    expect(readings.get('v')).to.include({ method: 'ERC4626_SHARE_PRICE', status: 'read-failed', apr: null });
    expect(readings.get('e')).to.include({ status: 'unsupported-target' });
  });
});

describe('indexer/fetch/readNativeApr: a Uniswap V3 pool’s LP fees over the last day against its TVL (#42)', function () {
  let devnet: Devnet;
  let clients: DevnetClients;
  let pool: DeployedUniswapV3Pool;
  let young: DeployedUniswapV3Pool;
  let chainClient: ChainClient;
  let dayAgo: { number: number; timestamp: number };
  const FEE = 3000n; // 0.3 %
  // Paid into the pool within the day, per token (token0, token1): what the pool took its fee from.
  const paidIn = [0n, 0n];
  const swaps: { zeroForOne: boolean; amountIn: bigint }[] = [
    { zeroForOne: true, amountIn: 10n ** 21n },
    { zeroForOne: false, amountIn: 2n * 10n ** 21n },
    { zeroForOne: true, amountIn: 5n * 10n ** 20n },
    { zeroForOne: false, amountIn: 1_500n * 10n ** 18n + 7n },
    { zeroForOne: true, amountIn: 333_333_333_333_333_333_333n },
  ];

  before(async function () {
    devnet = await startDevnetOnFreePort({ chainId: CHAIN_ID });
    const { rpcUrl } = devnet;
    clients = createDevnetClients({ rpcUrl, chainId: CHAIN_ID });
    const { walletClient: wallet, publicClient } = clients;
    const token = async (symbol: string) =>
      (
        await send(
          clients,
          wallet.deployContract({ abi: testErc20Abi, bytecode: testErc20Bytecode, args: [symbol, symbol, 18] }),
        )
      ).contractAddress! as Address;
    const [a, b, c] = [await token('A'), await token('B'), await token('C')];
    // 10^24 liquidity in ±600 ticks (~±6 %) at price 1: ~3·10^22 of each token, the swaps below stay in range.
    pool = await deployUniswapV3Pool({ rpcUrl, chainId: CHAIN_ID, tokens: [a, b], liquidity: 10n ** 24n });
    const swap = (zeroForOne: boolean, amountIn: bigint) =>
      swapUniswapV3ExactIn({ rpcUrl, chainId: CHAIN_ID, minter: pool.minter, pool: pool.pool, zeroForOne, amountIn });
    // Before the window: its fees are not the day's.
    await swap(true, 4n * 10n ** 21n);
    const block = await publicClient.getBlock({ blockTag: 'latest' });
    dayAgo = { number: Number(block.number), timestamp: Number(block.timestamp) };
    await publicClient.request({ method: 'evm_increaseTime' as never, params: [86_460] as never });
    for (const s of swaps) {
      const { amount0, amount1 } = await swap(s.zeroForOne, s.amountIn);
      // Exactly in: the pool was paid the whole amount of the input token.
      expect(s.zeroForOne ? amount0 : amount1).to.equal(s.amountIn);
      paidIn[s.zeroForOne ? 0 : 1]! += s.amountIn;
    }
    // Deployed within the day: no fee growth a day ago.
    young = await deployUniswapV3Pool({ rpcUrl, chainId: CHAIN_ID, tokens: [a, c], liquidity: 10n ** 22n });
    chainClient = {
      chain: { id: CHAIN_ID } as unknown as ChainClient['chain'],
      client: publicClient as unknown as ChainClient['client'],
    };
  });

  after(async () => {
    await devnet?.stop();
  });

  const targets = () => [
    { id: 'p', identifier: pool.pool.toLowerCase() },
    { id: 'y', identifier: young.pool.toLowerCase() },
  ];

  it('reads the LP fees of the day’s swaps (amountIn × fee per swap, per input token), and prices them into fees / TVL × year / elapsed × 100', async () => {
    const head = await clients.publicClient.getBlock({ blockTag: 'latest' });
    const tvl = await readUniswapV3Tvl(chainClient, targets());
    expect(tvl.get('p')).to.include({ method: 'UNISWAP_V3_POOL' });
    const readings = await readNativeApr(chainClient, targets(), tvl, async () => dayAgo);
    const r = readings.get('p')!;
    expect(r).to.include({ method: 'UNISWAP_V3_FEES', status: 'ok', apr: null });
    const elapsed = Number(head.timestamp) - dayAgo.timestamp;
    expect(elapsed).to.be.within(86_400, 86_600);
    expect(r.fees!.elapsedSeconds).to.equal(elapsed);
    // Independently, from the swaps: the pool takes fee / 1e6 of each input (rounded up, each step's
    // fee growth then rounded down over the liquidity): a few base units per swap at most.
    const expected = paidIn.map((x) => (x * FEE) / 1_000_000n);
    expect(expected.every((x) => x > 10n ** 18n)).to.equal(true);
    const tokens = tvl.get('p')!.tokens;
    r.fees!.tokens.forEach((t, i) => {
      expect(t.tokenId).to.equal(tokens[i]!.tokenId);
      expect(t.decimals).to.equal(18);
      const diff = BigInt(t.amount) - expected[i]!;
      expect(diff < 0n ? -diff : diff <= BigInt(2 * swaps.length), `token${i}: ${t.amount} vs ${expected[i]}`).to.equal(
        true,
      );
    });
    // Priced: token0 at $2, token1 at $3; the TVL is the pool's balances at those prices.
    const usd = [2, 3];
    const prices = new Map<string, StoredPrice>(
      tokens.map((t, i) => [t.tokenId, { price: usd[i]!, updatedAt: 0, priceSource: 'test', stale: false }]),
    );
    const tvlUsd = tvlUsdOf({ ...tvl.get('p')!, tokens: tokens.map((t) => ({ ...t, price: prices.get(t.tokenId) })) })!;
    expect(tvlUsd).to.be.greaterThan(100_000);
    const feesUsd = expected.reduce((sum, x, i) => sum + (Number(x) / 1e18) * usd[i]!, 0);
    const apr = pricedNativeApr(r, prices, tvlUsd);
    expect(apr).to.include({ method: 'UNISWAP_V3_FEES', status: 'ok' });
    expect(apr.apr).to.be.closeTo(((feesUsd / tvlUsd) * 365 * 86_400 * 100) / elapsed, 1e-9);
    expect(apr.apr).to.be.greaterThan(0);
  });

  it('is no-history for a pool deployed within the day, and without a stored block a day old', async () => {
    const tvl = await readUniswapV3Tvl(chainClient, targets());
    const readings = await readNativeApr(chainClient, targets(), tvl, async () => dayAgo);
    expect(readings.get('y')).to.include({ method: 'UNISWAP_V3_FEES', status: 'no-history', apr: null });
    const none = await readNativeApr(chainClient, targets(), tvl, async () => null);
    for (const id of ['p', 'y'])
      expect(none.get(id)).to.include({ method: 'UNISWAP_V3_FEES', status: 'no-history', apr: null });
  });
});
