import {
  BaseError,
  ContractFunctionRevertedError,
  decodeErrorResult,
  encodeFunctionData,
  erc20Abi,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem';
import { distributionCreatorAbi } from '../../../../domain/abis/distributionCreator.js';
import { DEPLOYLESS_MULTICALL_GAS, isNodeFailure, readChain } from '../../../chain/readChain.js';
import { readErc20 } from '../../../chain/tokenReads.js';
import type { ApiDeps } from '../../../deps.js';
import { ServiceUnavailableError, ValidationError, type FieldError } from '../../../errors.js';
import { buildCampaigns, type PlannedCampaign } from './buildCampaigns.js';
import { toSafePayload } from './safePayload.js';
import { fundedStateOverride } from './tokenStateOverride.js';
import type { Handler } from '../../../validate.js';
import type { generatePayloadBody } from './schema.js';

const BASE_9 = 1_000_000_000n;

type PayloadChain = NonNullable<ReturnType<ApiDeps['rpc']['get']>>;

/** The most gas a simulated creation gets: what a block holds on the chains we serve (Hardhat's default too). */
const BLOCK_GAS = 30_000_000n;

/** Plain words for the DistributionCreator's custom errors (docs/contracts.md#distributioncreator-errors). */
const REVERT_REASONS: Record<string, string> = {
  CampaignRewardTokenNotWhitelisted: 'the reward token is not whitelisted on this chain',
  CampaignRewardTooLow: 'an amount is below the per-hour minimum of the reward token',
  CampaignDurationNull: 'a campaign has no duration',
  CampaignAlreadyExists: 'a campaign with the same id already exists',
  InvalidParam: 'a campaign parameter is invalid',
  NotSigned: 'the creator has not accepted the conditions yet (acceptConditions on the DistributionCreator)',
};

/**
 * Pure: the creation fee rate the DistributionCreator applies (1e9 base, docs/contracts.md#fees-and-rebates): the
 * type's own rate (1 = waived, 0 = the default), reduced by the sender's rebate:
 * `base × (1e9 − feeRebate[msg.sender]) / 1e9`, rounded down as on chain.
 */
export function feeRate(defaultFees: bigint, typeFees: bigint, feeRebate = 0n): bigint {
  const base = typeFees === 0n ? defaultFees : typeFees === 1n ? 0n : typeFees;
  return (base * (BASE_9 - feeRebate)) / BASE_9;
}

/** The revert data anywhere in an error's cause chain (`data` as hex, or a node's `{ data: { data } }`). */
function revertData(error: unknown): Hex | undefined {
  for (
    let e = error as { data?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 8;
    e = e.cause as typeof e, depth++
  ) {
    const d = e.data;
    if (typeof d === 'string' && d.startsWith('0x')) return d as Hex;
    const inner = (d as { data?: unknown } | undefined)?.data;
    if (typeof inner === 'string' && inner.startsWith('0x')) return inner as Hex;
  }
  return undefined;
}

function revertReason(error: unknown): string {
  const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
  const data = revertData(error);
  let name = reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
  if (!name && typeof data === 'string' && data.length >= 10) {
    try {
      name = decodeErrorResult({ abi: [...distributionCreatorAbi, ...erc20Abi], data }).errorName;
    } catch {
      /* not one of ours */
    }
  }
  return (
    (name && REVERT_REASONS[name]) ??
    (name
      ? `the creation reverts with ${name}`
      : error instanceof Error
        ? error.message.split('\n')[0]!
        : 'the creation reverts')
  );
}

type CreationReadParams = {
  creatorContract: Address;
  creator: Address;
  token: Address;
  types: number[];
  campaigns: PlannedCampaign[];
};

/**
 * What the checks of a creation read on chain, at one block within the request's chain-read bounds
 * (readChain): first the DistributionCreator's fees, the token's whitelisting and the campaigns
 * already there (one deployless multicall of our own contract, CHAIN_READ_GAS per read in it); then, only for a
 * whitelisted token, its allowance and the creator's balance (an eth_call each with its own gas): an
 * address the caller names is not called before the whitelist admits it (issue #43 F1).
 */
async function readCreation(deps: ApiDeps, chain: PayloadChain, p: CreationReadParams) {
  const gas = BigInt(deps.config.chainReads.readGas);
  const creator = p.creatorContract;
  const contracts = [
    { address: creator, abi: distributionCreatorAbi, functionName: 'defaultFees' },
    { address: creator, abi: distributionCreatorAbi, functionName: 'rewardTokenMinAmounts', args: [p.token] },
    // The payload is sent by the creator: its rebate is the one the contract applies (msg.sender).
    { address: creator, abi: distributionCreatorAbi, functionName: 'feeRebate', args: [p.creator] },
    ...p.types.map((t) => ({
      address: creator,
      abi: distributionCreatorAbi,
      functionName: 'campaignSpecificFees' as const,
      args: [t] as const,
    })),
    ...p.campaigns.map((c) => ({
      address: creator,
      abi: distributionCreatorAbi,
      functionName: 'campaign' as const,
      args: [c.campaignId] as const,
    })),
  ];
  const multicallGas = DEPLOYLESS_MULTICALL_GAS + gas * BigInt(contracts.length);
  // Its budget: the multicall of our DistributionCreator, then the token's allowance and balanceOf.
  const budget = multicallGas + 2n * gas;
  return readChain(deps, chain, { gas, budget }, async (client, withGas) => {
    const blockNumber = await client.getBlockNumber();
    const reads = (await withGas(multicallGas).multicall({
      allowFailure: true,
      deployless: true,
      blockNumber,
      contracts: contracts as never,
    })) as { status: 'success' | 'failure'; result?: unknown }[];
    const value = (i: number) => (reads[i]?.status === 'success' ? (reads[i]!.result as bigint) : undefined);
    const minPerHour = value(1) ?? 0n;
    const [allowance, balance] =
      minPerHour > 0n
        ? ((await readErc20(
            client,
            [
              { address: p.token, functionName: 'allowance', args: [p.creator, creator] },
              { address: p.token, functionName: 'balanceOf', args: [p.creator] },
            ],
            blockNumber,
          )) as (bigint | undefined)[])
        : [undefined, undefined];
    return {
      defaultFees: value(0),
      minPerHour,
      feeRebate: value(2),
      typeFeeReads: p.types.map((_, i) => value(3 + i)),
      exists: p.campaigns.map((_, i) => reads[3 + p.types.length + i]?.status === 'success'),
      allowance: typeof allowance === 'bigint' ? allowance : undefined,
      balance: typeof balance === 'bigint' ? balance : undefined,
    };
  });
}

/**
 * POST /v4/campaigns/generate-payload: the `createCampaigns` transaction creating the body's
 * campaigns on the distribution chain, the approval it needs, the id each campaign will get, and
 * the same as a Safe batch. Checked against the chain first (fees, whitelist, per-hour minimum,
 * existing ids) and simulated from the creator (before its approval, with the approval assumed); a creation that would
 * revert is a 400 naming why. Two turns of the chain-read bounds (readChain): the checks (readCreation), then the
 * simulation (its gas CHAIN_CALL_GAS per campaign).
 */
export function generatePayloadHandler(deps: ApiDeps): Handler<{ body: typeof generatePayloadBody }> {
  return async (ctx) => {
    const body = ctx.state.body;
    const chain = deps.rpc.get(body.distributionChainId);
    if (!chain)
      throw new ValidationError([
        {
          field: 'distributionChainId',
          message: `is not a supported chain (supported: ${[...deps.rpc.keys()].join(', ')})`,
        },
      ]);
    const { campaigns, errors } = buildCampaigns(body);
    if (errors.length) throw new ValidationError(errors);
    const creatorContract = chain.chain.distributionCreator;
    const types = [...new Set(campaigns.map((c) => c.campaignType))];
    const { defaultFees, minPerHour, feeRebate, typeFeeReads, exists, allowance, balance } = await readCreation(
      deps,
      chain,
      { creatorContract, creator: body.creatorAddress, token: body.rewardToken, types, campaigns },
    );
    // Every input of the fee is read on chain: an unread one is never guessed.
    if (defaultFees === undefined || feeRebate === undefined || typeFeeReads.some((f) => f === undefined)) {
      throw new ServiceUnavailableError(`the DistributionCreator fee reads on chain ${body.distributionChainId}`);
    }
    const typeFees = new Map(types.map((t, i) => [t, typeFeeReads[i]!]));
    const problems: FieldError[] = [];
    if (minPerHour === 0n)
      problems.push({
        field: 'rewardToken',
        message: `is not whitelisted as a reward token on chain ${body.distributionChainId}`,
      });
    campaigns.forEach((c, i) => {
      if (minPerHour > 0n && c.amount * 3600n < minPerHour * BigInt(c.duration)) {
        problems.push({
          field: `${c.field}.amount`,
          message: `is below the per-hour minimum: at least ${(minPerHour * BigInt(c.duration) + 3599n) / 3600n} for ${c.duration} s (${minPerHour} per hour)`,
        });
      }
      if (exists[i])
        problems.push({
          field: c.field,
          message: `campaign ${c.campaignId} already exists on chain ${body.distributionChainId}: shift its start by a second`,
        });
    });
    if (problems.length) throw new ValidationError(problems);

    const args = [
      campaigns.map(({ campaignId: _, field: __, typeName: ___, ...c }) => ({
        campaignId: `0x${'0'.repeat(64)}` as Hex,
        ...c,
      })),
    ] as const;
    const data = encodeFunctionData({
      abi: distributionCreatorAbi,
      functionName: 'createCampaigns',
      args: args as never,
    });
    const total = campaigns.reduce((sum, c) => sum + c.amount, 0n);
    const funded = allowance !== undefined && balance !== undefined && allowance >= total && balance >= total;
    const simulation = await simulate(deps, chain, campaigns.length, {
      from: body.creatorAddress,
      to: creatorContract,
      data,
      funded,
      token: body.rewardToken,
      total,
    });
    if (simulation.reverted)
      throw new ValidationError([
        { field: 'campaignsParams', message: `the creation would revert: ${simulation.reason}` },
      ]);
    ctx.body = {
      chainId: body.distributionChainId,
      distributionCreator: creatorContract,
      to: creatorContract,
      data,
      value: '0',
      approval: {
        token: body.rewardToken,
        spender: creatorContract,
        amount: total.toString(),
        currentAllowance: allowance?.toString() ?? null,
        sufficient: allowance !== undefined && allowance >= total,
      },
      campaigns: campaigns.map((c) =>
        serializePlanned(c, feeRate(defaultFees, typeFees.get(c.campaignType) ?? 0n, feeRebate)),
      ),
      safe: toSafePayload({
        chainId: body.distributionChainId,
        distributionCreator: creatorContract,
        rewardToken: body.rewardToken,
        total,
        campaigns,
        createdAt: Date.now(),
      }),
      simulation: {
        performed: simulation.performed,
        ...(simulation.assumedApproval ? { assumedApproval: true } : {}),
        ...(simulation.performed ? {} : { reason: simulation.reason }),
      },
    };
  };
}

/**
 * eth_call of the creation from the creator. Before the approval is sent, the call runs with a
 * state override granting the creator the balance and allowance it will need (`assumedApproval`),
 * so a creation that would revert for another reason is caught before anything is signed.
 */
async function simulate(
  deps: ApiDeps,
  chain: PayloadChain,
  count: number,
  p: { from: Address; to: Address; data: Hex; funded: boolean; token: Address; total: bigint },
) {
  const { readGas, callGas } = deps.config.chainReads;
  // Its own turn and deadline: the storage probes are views of the token, the creation gets
  // CHAIN_CALL_GAS per campaign (never more than a block holds).
  const gas = BigInt(callGas) * BigInt(count);
  const creationGas = gas < BLOCK_GAS ? gas : BLOCK_GAS;
  // Its budget: the creation, plus CHAIN_REQUEST_GAS for the storage probes of the token.
  const budget = creationGas + BigInt(deps.config.chainReads.requestGas);
  return readChain(deps, chain, { gas: BigInt(readGas), budget }, async (client, withGas) =>
    simulateCreation(deps, { client, chain }, withGas(creationGas), p),
  );
}

async function simulateCreation(
  deps: ApiDeps,
  { client, chain }: { client: PublicClient; chain: PayloadChain },
  creation: PublicClient,
  p: { from: Address; to: Address; data: Hex; funded: boolean; token: Address; total: bigint },
) {
  const stateOverride = p.funded
    ? undefined
    : await fundedStateOverride(client, { token: p.token, owner: p.from, spender: p.to, amount: p.total }, chain);
  if (!p.funded && !stateOverride) {
    return {
      performed: false,
      assumedApproval: false,
      reverted: false,
      reason:
        "the creator has not approved (or does not hold) the total amount yet, and the reward token's storage layout is not the standard one to simulate it; send the approval first",
    };
  }
  try {
    await creation.call({ account: p.from, to: p.to, data: p.data, ...(stateOverride ? { stateOverride } : {}) });
    return { performed: true, assumedApproval: !p.funded, reverted: false, reason: '' };
  } catch (error) {
    if (isNodeFailure(error)) throw error;
    deps.logger.debug({ msg: 'payload simulation reverted', err: revertReason(error), assumedApproval: !p.funded });
    return { performed: true, assumedApproval: !p.funded, reverted: true, reason: revertReason(error) };
  }
}

/** `rate`: the effective fee rate (feeRate); the net is rounded down as on chain. */
function serializePlanned(c: PlannedCampaign, rate: bigint) {
  const net = rate === 0n ? c.amount : (c.amount * (BASE_9 - rate)) / BASE_9;
  return {
    campaignId: c.campaignId,
    campaignType: c.campaignType,
    campaignTypeName: c.typeName,
    creator: c.creator,
    rewardToken: c.rewardToken,
    amount: c.amount.toString(),
    fee: (c.amount - net).toString(),
    netAmount: net.toString(),
    feeRate: Number(rate) / 1e9,
    startTimestamp: c.startTimestamp,
    endTimestamp: c.startTimestamp + c.duration,
    duration: c.duration,
    campaignData: c.campaignData,
    // Not on chain: store `{ distributionMethodParameters }` with POST /v4/config/store and associate it with the campaign (GET /v4/config/hash/{hash}?campaignId&distributionChainId).
    ...(c.distributionMethodParameters ? { distributionMethodParameters: c.distributionMethodParameters } : {}),
  };
}
