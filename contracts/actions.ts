/**
 * Transactions against a deployed devnet stack (see deploy.ts), for integration tests and the demo
 * seeder. Each action simulates first (so a revert surfaces as a decoded custom error, see
 * `getRevertErrorName`), sends, waits for the receipt and returns the decoded events.
 * Campaign-data encoders and time controls are re-exported from campaignData.ts and time.ts.
 */
import { BaseError, ContractFunctionRevertedError, parseEventLogs, zeroAddress, zeroHash } from 'viem';
import type { Abi, Address, Hex, TransactionReceipt } from 'viem';
import { distributionCreatorAbi, distributorAbi, testErc20Abi } from './artifacts/index.js';
import { createDevnetClients } from './clients.js';
import type { DevnetClients } from './clients.js';
import type { DeployedStack } from './deploy.js';
import { getLatestTimestamp, mine } from './time.js';

export { encodeClammCampaignData, encodeErc20CampaignData } from './campaignData.js';
export type { EncodeClammCampaignDataParams, EncodeErc20CampaignDataParams } from './campaignData.js';
export { computeCampaignId } from '../domain/campaignId.js';
export type { ComputeCampaignIdParams } from '../domain/campaignId.js';
export { getLatestTimestamp, mine, revert, setNextBlockTimestamp, snapshot } from './time.js';
export type { MineParams } from './time.js';

/** Where and as whom an action runs; `privateKey` defaults to hardhat account #0 (the deployer). */
export type ActionTarget = {
  rpcUrl: string;
  chainId: number;
  stack: Pick<DeployedStack, 'distributionCreator' | 'distributor'>;
  privateKey?: Hex;
};

export type TxResult = { txHash: Hex; blockNumber: bigint };

/** One campaign to create. `amount` is gross (fees are taken on-chain); `creator` defaults to 0x0 = sender. */
export type CampaignInput = {
  rewardToken: Address;
  amount: bigint;
  campaignType: number;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
  creator?: Address;
};

/** Campaign as emitted in `NewCampaign` (net amount, final creator, computed id). */
export type CreatedCampaign = {
  campaignId: Hex;
  creator: Address;
  rewardToken: Address;
  amount: bigint;
  campaignType: number;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
};

/** Thrown when a mined transaction reverted (simulation passed but execution did not). */
export class TransactionRevertedError extends Error {
  override name = 'TransactionRevertedError';
}

/**
 * Finds the custom error name of a contract revert inside a viem error chain.
 * @returns e.g. `'CampaignAlreadyExists'`, or undefined when the error is not a decoded revert.
 */
export function getRevertErrorName(err: unknown): string | undefined {
  if (!(err instanceof BaseError)) return undefined;
  const reverted = err.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
}

async function confirm(clients: DevnetClients, txHash: Hex): Promise<TransactionReceipt> {
  const receipt = await clients.publicClient.waitForTransactionReceipt({ hash: txHash });
  if (receipt.status !== 'success') throw new TransactionRevertedError(`transaction ${txHash} reverted`);
  return receipt;
}

/**
 * Simulates a contract call as the target's account (so a revert surfaces with its custom error
 * name before anything is sent), sends it and waits for a successful receipt.
 */
async function send(
  params: ActionTarget,
  call: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] },
): Promise<TransactionReceipt> {
  const clients = createDevnetClients(params);
  const { request } = await clients.publicClient.simulateContract({ account: clients.account, ...call } as never);
  return confirm(clients, await clients.walletClient.writeContract(request as never));
}

/** Pure: a campaign to create as the contract's CampaignParameters tuple (id zero: the contract derives it). */
export function toCampaignTuple(c: CampaignInput) {
  return {
    campaignId: zeroHash,
    creator: c.creator ?? zeroAddress,
    rewardToken: c.rewardToken,
    amount: c.amount,
    campaignType: c.campaignType,
    startTimestamp: c.startTimestamp,
    duration: c.duration,
    campaignData: c.campaignData,
  };
}

export type CreateCampaignsParams = ActionTarget & { campaigns: readonly CampaignInput[] };
export type CreateCampaignsResult = TxResult & { campaignIds: Hex[]; campaigns: CreatedCampaign[] };

/**
 * Creates all campaigns in one `createCampaigns` transaction (the sender must hold and have approved the
 * gross amounts).
 * @returns the tx, and the ids and campaigns from the `NewCampaign` events, in input order.
 */
export async function createCampaigns(params: CreateCampaignsParams): Promise<CreateCampaignsResult> {
  const receipt = await send(params, {
    address: params.stack.distributionCreator,
    abi: distributionCreatorAbi,
    functionName: 'createCampaigns',
    args: [params.campaigns.map(toCampaignTuple)],
  });
  const events = parseEventLogs({ abi: distributionCreatorAbi, eventName: 'NewCampaign', logs: receipt.logs });
  const campaigns = events.map((e) => ({ ...e.args.campaign }));
  return {
    txHash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
    campaignIds: campaigns.map((c) => c.campaignId),
    campaigns,
  };
}

export type OverrideCampaignParams = ActionTarget & {
  campaignId: Hex;
  /** New mutable fields; creator, reward token and amount are kept on-chain whatever is sent. */
  campaign: Pick<CampaignInput, 'campaignType' | 'startTimestamp' | 'duration' | 'campaignData'>;
};

/**
 * Overrides a campaign (`overrideCampaign`); the sender must be its creator, an operator or the governor.
 * @returns the tx and the campaign as emitted in `CampaignOverride`.
 */
export async function overrideCampaign(
  params: OverrideCampaignParams,
): Promise<TxResult & { campaign: CreatedCampaign }> {
  const receipt = await send(params, {
    address: params.stack.distributionCreator,
    abi: distributionCreatorAbi,
    functionName: 'overrideCampaign',
    args: [params.campaignId, toCampaignTuple({ ...params.campaign, rewardToken: zeroAddress, amount: 0n })],
  });
  const [event] = parseEventLogs({ abi: distributionCreatorAbi, eventName: 'CampaignOverride', logs: receipt.logs });
  if (!event) throw new Error(`no CampaignOverride event in ${receipt.transactionHash}`);
  return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber, campaign: { ...event.args.campaign } };
}

export type ReallocateCampaignRewardsParams = ActionTarget & {
  campaignId: Hex;
  froms: readonly Address[];
  to: Address;
};

/**
 * Reallocates the unclaimed rewards of `froms` to `to` once the campaign has ended.
 */
export async function reallocateCampaignRewards(params: ReallocateCampaignRewardsParams): Promise<TxResult> {
  const receipt = await send(params, {
    address: params.stack.distributionCreator,
    abi: distributionCreatorAbi,
    functionName: 'reallocateCampaignRewards',
    args: [params.campaignId, params.froms, params.to],
  });
  return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber };
}

export type UpdateTreeParams = ActionTarget & {
  root: Hex;
  ipfsHash?: Hex;
  /**
   * Mine one block at `endOfDisputePeriod` (when it is in the future) so the new root is live on return.
   * Even with dispute period 0 the root only goes live at the next epoch boundary
   * (docs/contracts.md#dispute-period-and-the-live-root).
   */
  mineUntilLive?: boolean;
};

/**
 * Publishes a reward root (`updateTree`, governor only).
 * @returns the tx and the `endOfDisputePeriod` emitted in `TreeUpdated`.
 */
export async function updateTree(params: UpdateTreeParams): Promise<TxResult & { endOfDisputePeriod: number }> {
  const receipt = await send(params, {
    address: params.stack.distributor,
    abi: distributorAbi,
    functionName: 'updateTree',
    args: [{ merkleRoot: params.root, ipfsHash: params.ipfsHash ?? zeroHash }],
  });
  const [event] = parseEventLogs({ abi: distributorAbi, eventName: 'TreeUpdated', logs: receipt.logs });
  if (!event) throw new Error(`no TreeUpdated event in ${receipt.transactionHash}`);
  const { endOfDisputePeriod } = event.args;
  if (params.mineUntilLive && endOfDisputePeriod > (await getLatestTimestamp(params))) {
    await mine({ rpcUrl: params.rpcUrl, timestamp: endOfDisputePeriod });
  }
  return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber, endOfDisputePeriod };
}

/**
 * Sets the Distributor's dispute period, in epochs (governor only).
 */
export async function setDisputePeriod(params: ActionTarget & { disputePeriod: number }): Promise<TxResult> {
  const receipt = await send(params, {
    address: params.stack.distributor,
    abi: distributorAbi,
    functionName: 'setDisputePeriod',
    args: [params.disputePeriod],
  });
  return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber };
}

/**
 * Disputes the pending tree (`disputeTree`, anyone, before `endOfDisputePeriod`): the sender deposits
 * `disputeAmount` of `disputeToken`, so it must have approved the Distributor for it.
 */
export async function disputeTree(params: ActionTarget & { reason: string }): Promise<TxResult> {
  const receipt = await send(params, {
    address: params.stack.distributor,
    abi: distributorAbi,
    functionName: 'disputeTree',
    args: [params.reason],
  });
  return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber };
}

/**
 * Resolves the open dispute (`resolveDispute`, governor). Valid: refund and revoke (Revoked, TreeUpdated);
 * invalid: `endOfDisputePeriod` recomputed from the resolution time, no TreeUpdated (docs/contracts.md#dispute-period-and-the-live-root).
 */
export async function resolveDispute(params: ActionTarget & { valid: boolean }): Promise<TxResult> {
  const receipt = await send(params, {
    address: params.stack.distributor,
    abi: distributorAbi,
    functionName: 'resolveDispute',
    args: [params.valid],
  });
  return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber };
}

/** Sets the dispute deposit (`setDisputeToken` then `setDisputeAmount`, governor). */
export async function setDisputeDeposit(params: ActionTarget & { token: Address; amount: bigint }): Promise<TxResult> {
  await send(params, {
    address: params.stack.distributor,
    abi: distributorAbi,
    functionName: 'setDisputeToken',
    args: [params.token],
  });
  const receipt = await send(params, {
    address: params.stack.distributor,
    abi: distributorAbi,
    functionName: 'setDisputeAmount',
    args: [params.amount],
  });
  return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber };
}

/** One claim line: the cumulative amount in the live tree and its proof (see domain/rewardTree.ts). */
export type ClaimInput = { user: Address; token: Address; amount: bigint; proof: readonly Hex[] };

export type ClaimParams = ActionTarget & { claims: readonly ClaimInput[] };
export type ClaimResult = TxResult & { claimed: { user: Address; token: Address; amount: bigint }[] };

/**
 * Claims against the live root. The sender must be each user (or their operator, or the governor).
 * @returns the tx and the `Claimed` events: `amount` is the delta paid now (0 when already claimed).
 */
export async function claim(params: ClaimParams): Promise<ClaimResult> {
  const receipt = await send(params, {
    address: params.stack.distributor,
    abi: distributorAbi,
    functionName: 'claim',
    args: [
      params.claims.map((c) => c.user),
      params.claims.map((c) => c.token),
      params.claims.map((c) => c.amount),
      params.claims.map((c) => c.proof),
    ],
  });
  const events = parseEventLogs({ abi: distributorAbi, eventName: 'Claimed', logs: receipt.logs });
  return {
    txHash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
    claimed: events.map((e) => ({ user: e.args.user, token: e.args.token, amount: e.args.amount })),
  };
}

/** Mints test tokens (`TestERC20.mint`, open to anyone on the devnet) to an address, e.g. to fund the Distributor. */
export async function mintTokens(
  params: ActionTarget & { token: Address; to: Address; amount: bigint },
): Promise<TxResult> {
  const receipt = await send(params, {
    address: params.token,
    abi: testErc20Abi,
    functionName: 'mint',
    args: [params.to, params.amount],
  });
  return { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber };
}
