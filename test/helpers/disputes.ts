import { parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { setDisputeDeposit, setDisputePeriod, type ActionTarget } from '../../contracts/actions.js';
import { testErc20Abi } from '../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../contracts/clients.js';
import type { DeployedStack } from '../../contracts/deploy.js';

/**
 * Makes the devnet Distributor disputable by `keys`: the dispute deposit is 100 of the stack's first reward token,
 * each key gets 1000 of it and approves the Distributor, and the dispute period is one epoch.
 * @returns the deposit token.
 */
export async function prepareDisputers(
  target: ActionTarget & { stack: Pick<DeployedStack, 'tokens'> },
  keys: readonly Hex[],
): Promise<Address> {
  const token = target.stack.tokens.rewards[0]!.address.toLowerCase() as Address;
  const clients = createDevnetClients(target);
  const send = async (hash: Promise<Hex>) => clients.publicClient.waitForTransactionReceipt({ hash: await hash });
  for (const key of keys) {
    await send(
      clients.walletClient.writeContract({
        address: token,
        abi: testErc20Abi,
        functionName: 'mint',
        args: [privateKeyToAccount(key).address, parseUnits('1000', 18)],
      }),
    );
    const wallet = createDevnetClients({ ...target, privateKey: key });
    await send(
      wallet.walletClient.writeContract({
        address: token,
        abi: testErc20Abi,
        functionName: 'approve',
        args: [target.stack.distributor, 2n ** 255n],
      }),
    );
  }
  await setDisputeDeposit({ ...target, token, amount: parseUnits('100', 18) });
  await setDisputePeriod({ ...target, disputePeriod: 1 });
  return token;
}
