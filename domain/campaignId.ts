/** The on-chain campaignId derivation of the DistributionCreator (docs/contracts.md). */
import { encodePacked, keccak256 } from 'viem';
import type { Address, Hex } from 'viem';

export type ComputeCampaignIdParams = {
  chainId: number | bigint;
  /** The final creator: pass `msg.sender` when the call used the zero address. */
  creator: Address;
  rewardToken: Address;
  campaignType: number;
  startTimestamp: number;
  duration: number;
  campaignData: Hex;
};

/**
 * Computes the on-chain campaignId: `keccak256(abi.encodePacked(uint256 chainId, creator, rewardToken,
 * uint32 campaignType, uint32 startTimestamp, uint32 duration, campaignData))`. The amount is not hashed.
 */
export function computeCampaignId(params: ComputeCampaignIdParams): Hex {
  return keccak256(
    encodePacked(
      ['uint256', 'address', 'address', 'uint32', 'uint32', 'uint32', 'bytes'],
      [
        BigInt(params.chainId),
        params.creator,
        params.rewardToken,
        params.campaignType,
        params.startTimestamp,
        params.duration,
        params.campaignData,
      ],
    ),
  );
}
