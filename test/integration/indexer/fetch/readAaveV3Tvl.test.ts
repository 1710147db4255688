import { expect } from 'chai';
import { createPublicClient, custom, getAddress, http, type Abi, type Address, type PublicClient } from 'viem';
import { deployAaveV3AToken, type DeployedAaveV3AToken } from '../../../../contracts/aaveV3.js';
import { testErc20Abi, testErc20Bytecode } from '../../../../contracts/artifacts/index.js';
import { createDevnetClients, defineDevnetChain } from '../../../../contracts/clients.js';
import { startDevnetOnFreePort, type Devnet } from '../../../../contracts/devnet.js';
import { tokenDbId } from '../../../../domain/ids.js';
import { DEFAULT_CALL_GAS } from '../../../../domain/boundedReads.js';
import { readTvl } from '../../../../indexer/fetch/readTvl.js';
import type { ChainConfig } from '../../../../internal/config.js';
import type { ChainClient } from '../../../../internal/rpc.js';

const CHAIN_ID = 31337;

describe('indexer/fetch/readTvl: Aave V3 aTokens in their underlying; unknown TVLs with their reason (#42)', function () {
  let devnet: Devnet;
  let usdc: Address;
  let aave: DeployedAaveV3AToken;
  /** eth_call params the reader sent, by target address (lowercase). */
  const calls: { to: string; gas?: string }[] = [];
  let chainClient: ChainClient;

  before(async function () {
    devnet = await startDevnetOnFreePort({ chainId: CHAIN_ID });
    const { rpcUrl } = devnet;
    const { walletClient, publicClient } = createDevnetClients({ rpcUrl, chainId: CHAIN_ID });
    const hash = await walletClient.deployContract({
      abi: testErc20Abi as Abi,
      bytecode: testErc20Bytecode,
      args: ['USD Coin', 'USDC', 6],
    });
    usdc = getAddress((await publicClient.waitForTransactionReceipt({ hash })).contractAddress!);
    aave = await deployAaveV3AToken({
      rpcUrl,
      chainId: CHAIN_ID,
      underlying: usdc,
      underlyingDecimals: 6,
      supplyAssets: 1_000n * 10n ** 6n,
      // 5% interest accrued since the supply.
      normalizedIncome: 105n * 10n ** 25n,
    });
    // The indexer's client, its eth_calls recorded on the way to the node.
    const { request } = http(rpcUrl, { retryCount: 0 })({ chain: defineDevnetChain({ rpcUrl, chainId: CHAIN_ID }) });
    const client = createPublicClient({
      chain: defineDevnetChain({ rpcUrl, chainId: CHAIN_ID }),
      cacheTime: 0,
      transport: custom({
        request: async (args: { method: string; params?: unknown }) => {
          if (args.method === 'eth_call') {
            // A deployless multicall (the ERC20 reads) has no `to`.
            const [call] = args.params as [{ to?: string; gas?: string }];
            calls.push({ to: call.to?.toLowerCase() ?? '', gas: call.gas });
          }
          return request(args as never);
        },
      }),
    }) as PublicClient;
    chainClient = { chain: { id: CHAIN_ID, name: 'devnet', rpcUrl } as ChainConfig, client };
  });

  after(async () => {
    await devnet?.stop();
  });

  it("an aToken's TVL is its totalSupply (supplied plus interest) in units of the underlying, one token: the underlying", async function () {
    const readings = await readTvl(chainClient, [
      { id: 'a', type: 'ERC20', identifier: aave.aToken.toLowerCase() },
      { id: 'u', type: 'ERC20', identifier: usdc.toLowerCase() },
    ]);
    const underlying = usdc.toLowerCase();
    expect(readings.get('a')).to.deep.equal({
      method: 'AAVE_V3_ATOKEN',
      tokens: [
        {
          tokenId: tokenDbId(CHAIN_ID, underlying),
          tokenAddress: underlying,
          amount: (1_050n * 10n ** 6n).toString(),
          decimals: 6,
        },
      ],
    });
    // The underlying itself is a plain ERC20: its own totalSupply, as before.
    expect(readings.get('u')!.method).to.equal('ERC20_TOTAL_SUPPLY');
    // Every call of the read carried a gas limit: bounded multicalls (no `to`), each read its own gas.
    expect(calls.length, 'the tokens were read').to.be.greaterThan(0);
    const unbounded = calls.filter((c) => c.gas === undefined || BigInt(c.gas) > DEFAULT_CALL_GAS);
    expect(unbounded, 'eth_calls without a gas limit').to.deep.equal([]);
  });

  it('says why a TVL cannot be read: an identifier that is not an address is unsupported, an address with no contract failed', async function () {
    const readings = await readTvl(chainClient, [
      { id: 'hash', type: 'JSON_AIRDROP', identifier: `0x${'ab'.repeat(32)}` },
      { id: 'market', type: 'MORPHO', identifier: `0x${'cd'.repeat(32)}` },
      { id: 'eoa', type: 'ERC20', identifier: `0x${'ee'.repeat(20)}` },
    ]);
    expect(readings.get('hash')).to.deep.equal({ method: 'NONE', tokens: [], reason: 'unsupported-target' });
    // No morphoBlue in this chain's config: the market id cannot be read here.
    expect(readings.get('market')).to.deep.equal({ method: 'NONE', tokens: [], reason: 'unsupported-target' });
    expect(readings.get('eoa')).to.deep.equal({ method: 'NONE', tokens: [] });
  });
});
