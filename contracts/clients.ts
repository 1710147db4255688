/**
 * viem clients for a devnet: a chain definition that knows the Multicall3 address installed by
 * deployStack, plus public and wallet clients with a local (private-key) account.
 */
import { createPublicClient, createWalletClient, defineChain, http } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/** Canonical Multicall3 address; deployStack installs our runtime there with hardhat_setCode. */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11' as const;

/** Hardhat's public test account #0 (0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266). Never use outside devnets. */
export const HARDHAT_DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as const;

/** Hardhat's public test accounts #1-#3, handy as campaign users and claimers in tests. */
export const HARDHAT_TEST_KEYS = [
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
] as const;

export type DevnetTarget = { rpcUrl: string; chainId: number };

/**
 * Builds the viem chain of a devnet (native ETH, Multicall3 at the canonical address from block 0).
 */
export function defineDevnetChain({ rpcUrl, chainId }: DevnetTarget) {
  return defineChain({
    id: chainId,
    name: `Devnet ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3_ADDRESS, blockCreated: 0 } },
  });
}

export type CreateDevnetClientsParams = DevnetTarget & { privateKey?: Hex };

/**
 * Creates a public client and a wallet client signing locally with `privateKey` (default: hardhat #0).
 * Polls every 50 ms so receipts of automined transactions come back at once.
 */
export function createDevnetClients({ rpcUrl, chainId, privateKey = HARDHAT_DEPLOYER_KEY }: CreateDevnetClientsParams) {
  const chain = defineDevnetChain({ rpcUrl, chainId });
  const account = privateKeyToAccount(privateKey);
  const transport = http(rpcUrl, { retryCount: 0 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
  const walletClient = createWalletClient({ chain, transport, account, pollingInterval: 50 });
  return { chain, account, publicClient, walletClient };
}

export type DevnetClients = ReturnType<typeof createDevnetClients>;

/** Waits for the transaction `pending` sends to be mined; throws when it reverted. @returns its receipt. */
export async function confirmed(clients: DevnetClients, pending: Promise<Hex>) {
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash: await pending });
  if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`);
  return receipt;
}
