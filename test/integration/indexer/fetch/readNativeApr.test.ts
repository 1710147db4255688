import { expect } from 'chai';
import { maxUint256, type Address } from 'viem';
import { findFreePort, startDevnet, type Devnet } from '../../../../contracts/devnet.js';
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
import type { ChainClient } from '../../../../internal/rpc.js';
import type { UnpricedTvlReading } from '../../../../indexer/transform/computeMetrics.js';

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
    devnet = await startDevnet({ chainId: CHAIN_ID, port: await findFreePort() });
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
    devnet = await startDevnet({ chainId: CHAIN_ID, port: await findFreePort() });
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
