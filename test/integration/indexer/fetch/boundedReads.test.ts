import { expect } from 'chai';
import { parseAbi, type Address } from 'viem';
import { deployStack, type DeployedStack } from '../../../../contracts/deploy.js';
import { jsonRpc, startDevnetOnFreePort, type Devnet } from '../../../../contracts/devnet.js';
import { readBounded, readsPerCall } from '../../../../domain/boundedReads.js';
import { readTokenMetadata } from '../../../../domain/readTokenMetadata.js';
import { readTvl } from '../../../../indexer/fetch/readTvl.js';
import { loadConfig } from '../../../../internal/config.js';
import { createLogger } from '../../../../internal/logger.js';
import { createChainClients, type ChainClient } from '../../../../internal/rpc.js';

const CHAIN_ID = 31339;
/** Runtime code that never stops: JUMPDEST, PUSH1 0, JUMP. */
const LOOPING_CODE = '0x5b600056';
/** Runtime code that answers 64 KiB of zeros to any call: PUSH3 0x010000, PUSH1 0, RETURN. */
const HUGE_RETURN_CODE = '0x62010000' + '6000f3';
const erc20 = parseAbi(['function decimals() view returns (uint8)', 'function totalSupply() view returns (uint256)']);

/**
 * The jobs' chain reads of contracts named by campaigns (anyone's) are bounded (issue #43's rule for
 * the indexer): each read of a multicall has its own gas, so a looping or oversized target fails
 * alone and the reads beside it answer; every eth_call the jobs' client sends carries a gas limit.
 */
describe('indexer: bounded chain reads (domain/boundedReads.ts)', function () {
  this.timeout(120_000);
  let devnet: Devnet;
  let stack: DeployedStack;
  let chainClient: ChainClient;
  const looping = `0x${'5b'.repeat(20)}` as Address;
  const huge = `0x${'6f'.repeat(20)}` as Address;
  const eoa = `0x${'12'.repeat(20)}` as Address;

  before(async function () {
    devnet = await startDevnetOnFreePort({ chainId: CHAIN_ID });
    stack = await deployStack({ rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID });
    await jsonRpc(devnet.rpcUrl, 'hardhat_setCode', [looping, LOOPING_CODE]);
    await jsonRpc(devnet.rpcUrl, 'hardhat_setCode', [huge, HUGE_RETURN_CODE]);
    // Small limits: the devnet runs a looping call at about 1M gas a second on this machine.
    const config = loadConfig({
      ...process.env,
      INDEXER_READ_GAS: '100000',
      INDEXER_CALL_GAS: '2000000',
      CHAINS: JSON.stringify([
        {
          id: CHAIN_ID,
          name: 'bounded',
          rpcUrl: devnet.rpcUrl,
          distributor: stack.distributor,
          distributionCreator: stack.distributionCreator,
        },
      ]),
    });
    chainClient = createChainClients(config).get(CHAIN_ID)!;
  });
  after(async () => devnet?.stop());

  it('a looping target spends its own read gas and fails alone; the reads after it in the same call answer', async function () {
    expect(readsPerCall(100_000n, 2_000_000n), 'the five reads leave in one call').to.be.at.least(5);
    const token = stack.tokens.rewards[0]!.address;
    const calls = [looping, token, huge, eoa, token].map((address) => ({
      address,
      abi: erc20,
      functionName: 'decimals',
    }));
    const started = Date.now();
    const results = await readBounded(chainClient, calls);
    expect(results.map((r) => r.status)).to.deep.equal(['failure', 'success', 'failure', 'failure', 'success']);
    expect(results[1]).to.deep.equal({ status: 'success', result: 18 });
    console.log(`    bounded multicall with a looping and a 64 KiB target: ${Date.now() - started} ms`);
  });

  it('token metadata: a looping token is left out, the others described', async function () {
    const logger = createLogger({ level: 'silent' } as never);
    const rows = await readTokenMetadata(
      chainClient,
      [looping, stack.tokens.rewards[0]!.address, huge, stack.tokens.rewards[1]!.address],
      logger,
    );
    expect(rows.map((r) => r.address)).to.deep.equal(
      [stack.tokens.rewards[0]!.address, stack.tokens.rewards[1]!.address].map((a) => a.toLowerCase()),
    );
  });

  it('TVL: an opportunity whose target loops gets no reading; the ERC20 beside it gets its supply', async function () {
    const target = stack.tokens.targets[0]!.address.toLowerCase();
    const supply = await chainClient.client.readContract({
      address: target as Address,
      abi: erc20,
      functionName: 'totalSupply',
    });
    const readings = await readTvl(chainClient, [
      { id: 'loop', type: 'ERC20', identifier: looping.toLowerCase() },
      { id: 'token', type: 'ERC20', identifier: target },
      { id: 'pool', type: 'CLAMM', identifier: looping.toLowerCase() },
    ]);
    expect(readings.get('loop')?.method).to.equal('NONE');
    expect(readings.get('pool')?.method).to.equal('NONE');
    expect(readings.get('token')).to.deep.include({ method: 'ERC20_TOTAL_SUPPLY' });
    expect(readings.get('token')!.tokens[0]!.amount).to.equal(supply.toString());
  });
});
