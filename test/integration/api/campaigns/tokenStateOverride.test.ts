import { expect } from 'chai';
import { erc20Abi, type Address, type PublicClient } from 'viem';
import { fundedStateOverride } from '../../../../api/routes/campaigns/payload/tokenStateOverride.js';
import { vyperLayoutTokenAbi, vyperLayoutTokenBytecode } from '../../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../../contracts/clients.js';
import { startTestChains, type TestChain } from '../../../helpers/testChains.js';

const OWNER = '0x00000000000000000000000000000000000000aa' as Address;
const SPENDER = '0x00000000000000000000000000000000000000bb' as Address;
const AMOUNT = 123_456_789n;

describe('generate-payload state overrides: balance and allowance slots of Solidity and Vyper tokens', function () {
  let chains: { chains: TestChain[]; stop(): Promise<void> };
  let client: PublicClient;
  let solidityToken: Address;
  let vyperToken: Address;
  let calls: number;

  before(async function () {
    chains = await startTestChains([31337]);
    const { devnet, stack } = chains.chains[0]!;
    const { walletClient, publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const hash = await walletClient.deployContract({ abi: vyperLayoutTokenAbi, bytecode: vyperLayoutTokenBytecode });
    vyperToken = (await publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
    solidityToken = stack.tokens.rewards[0]!.address;
    // Count the probe calls the override lookup makes.
    const call = publicClient.call.bind(publicClient);
    client = Object.assign(Object.create(publicClient), {
      call: (args: Parameters<typeof call>[0]) => (calls++, call(args)),
    }) as PublicClient;
  });
  after(async () => chains?.stop());

  const readWithOverride = async (token: Address) => {
    calls = 0;
    const stateOverride = await fundedStateOverride(client, { token, owner: OWNER, spender: SPENDER, amount: AMOUNT });
    const probes = calls;
    expect(stateOverride, `override for ${token}`).to.not.equal(null);
    const [balance, allowance] = await Promise.all([
      client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [OWNER],
        stateOverride: stateOverride!,
      }),
      client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [OWNER, SPENDER],
        stateOverride: stateOverride!,
      }),
    ]);
    return { balance, allowance, probes };
  };

  it('funds an owner of a Solidity-layout token (mappings hashed key first)', async function () {
    const first = await readWithOverride(solidityToken);
    expect(first).to.include({ balance: AMOUNT, allowance: AMOUNT });
    expect(first.probes).to.be.greaterThan(0);
  });

  it('funds an owner of a Vyper-layout token (HashMaps hashed slot first), which the Solidity probe alone misses', async function () {
    const res = await readWithOverride(vyperToken);
    expect(res).to.include({ balance: AMOUNT, allowance: AMOUNT });
  });

  it('remembers the layout per token: a second request makes no probe', async function () {
    expect((await readWithOverride(vyperToken)).probes).to.equal(0);
    expect((await readWithOverride(solidityToken)).probes).to.equal(0);
  });

  it('answers null for a contract that is no token, never a made-up override', async function () {
    const { stack } = chains.chains[0]!;
    expect(
      await fundedStateOverride(client, { token: stack.distributor, owner: OWNER, spender: SPENDER, amount: AMOUNT }),
    ).to.equal(null);
  });
});
