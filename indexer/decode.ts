import { decodeAbiParameters, type Hex } from 'viem';

/** A NewCampaign log as a typed domain event (chain-facts §1.1, §1.6). */
export type NewCampaignEvent = {
  chainId: number;
  blockNumber: number;
  blockHash: Hex;
  txHash: Hex;
  logIndex: number;
  campaignId: Hex;
  creator: Hex;
  rewardToken: Hex;
  /** Net of creation fees, as emitted. */
  amount: bigint;
  campaignType: number;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
};

type CampaignArgs = {
  campaign: { campaignId: Hex; creator: Hex; rewardToken: Hex; amount: bigint; campaignType: number; startTimestamp: number; duration: number; campaignData: Hex };
};
type DecodedLog = { args: CampaignArgs; blockNumber: bigint | null; blockHash: Hex | null; transactionHash: Hex | null; logIndex: number | null };

export class DecodeError extends Error {
  override name = 'DecodeError';
}

/** Pure: a viem-decoded NewCampaign log → NewCampaignEvent. Pending logs (no block) are refused. */
export function decodeNewCampaign(chainId: number, log: DecodedLog): NewCampaignEvent {
  const c = log.args.campaign;
  if (log.blockNumber === null || !log.blockHash || !log.transactionHash || log.logIndex === null) {
    throw new DecodeError(`NewCampaign log without block position on chain ${chainId}`);
  }
  return {
    chainId,
    blockNumber: Number(log.blockNumber),
    blockHash: log.blockHash,
    txHash: log.transactionHash,
    logIndex: log.logIndex,
    campaignId: c.campaignId,
    creator: c.creator,
    rewardToken: c.rewardToken,
    amount: c.amount,
    campaignType: c.campaignType,
    startTimestamp: c.startTimestamp,
    duration: c.duration,
    campaignData: c.campaignData,
  };
}

const CROSS_CHAIN_SUFFIX = 'c0c0c0c0';

/**
 * Pure: splits a cross-chain wrapped campaignData (`abi.encode(uint32 computeChainId, bytes inner) ++ 0xc0c0c0c0`,
 * chain-facts §1.10) into its compute chain and inner data; other data is returned as is.
 */
export function unwrapCampaignData(data: Hex): { computeChainId: number | null; data: Hex } {
  if (!data.toLowerCase().endsWith(CROSS_CHAIN_SUFFIX) || data.length < 2 + 64 * 3 + 8) return { computeChainId: null, data };
  try {
    const [computeChainId, inner] = decodeAbiParameters([{ type: 'uint32' }, { type: 'bytes' }], data.slice(0, -8) as Hex);
    return { computeChainId, data: inner };
  } catch {
    return { computeChainId: null, data };
  }
}

/**
 * Pure: the opportunity identifier (mainParameter) of a campaign when its data starts with an
 * address word (ERC20 target token, CLAMM pool, ... chain-facts §1.10); null when it does not.
 */
export function leadingAddress(data: Hex): Hex | null {
  const word = data.slice(2, 66);
  if (word.length < 64 || !/^0{24}/.test(word) || /^0{64}$/.test(word)) return null;
  return `0x${word.slice(24)}` as Hex;
}
