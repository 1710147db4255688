import { deployStack, type DeployedStack } from '../../contracts/deploy.js';
import { startDevnetOnFreePort, type Devnet } from '../../contracts/devnet.js';

export type TestChain = { devnet: Devnet; stack: DeployedStack };

/**
 * Starts one devnet per chain id on free ports and deploys our contracts on each; `stop` kills
 * them. One set of devnets per suite, so suites never share chain state.
 */
export async function startTestChains(
  chainIds: number[] = [31337, 31338],
): Promise<{ chains: TestChain[]; stop(): Promise<void> }> {
  const chains: TestChain[] = [];
  try {
    for (const chainId of chainIds) {
      const devnet = await startDevnetOnFreePort({ chainId });
      chains.push({ devnet, stack: {} as DeployedStack });
      chains[chains.length - 1]!.stack = await deployStack({ rpcUrl: devnet.rpcUrl, chainId });
    }
  } catch (error) {
    await Promise.allSettled(chains.map((c) => c.devnet.stop()));
    throw error;
  }
  return { chains, stop: async () => void (await Promise.allSettled(chains.map((c) => c.devnet.stop()))) };
}
