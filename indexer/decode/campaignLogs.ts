import { formatLog, parseEventLogs, toEventSelector, type Hex, type Log, type RpcLog } from 'viem';
import { CAMPAIGN_EVENTS, newCampaignEvent } from '../../domain/abis/distributionCreator.js';
import {
  decodeCampaignOverride,
  decodeCampaignReallocation,
  decodeNewCampaign,
  decodeRewardTokenMinAmount,
  positionOf,
  type CampaignOverrideEvent,
  type CampaignReallocationEvent,
  type NewCampaignEvent,
  type RewardTokenMinAmountEvent,
} from './campaignEvents.js';
import { decodeCampaignTupleData } from './newCampaignData.js';

/** A range's DistributionCreator events, each list in chain order; NewCampaign addresses lower-case. */
export type CampaignLogs = {
  newCampaigns: NewCampaignEvent[];
  overrides: CampaignOverrideEvent[];
  reallocations: CampaignReallocationEvent[];
  rewardTokenMinAmounts: RewardTokenMinAmountEvent[];
};

const NEW_CAMPAIGN_TOPIC = toEventSelector(newCampaignEvent);

/** Pure: the position of a log as the node sent it (hex quantities), through positionOf (pending logs are refused). */
const rawPositionOf = (chainId: number, { blockNumber, blockHash, transactionHash, logIndex }: RpcLog) =>
  positionOf(
    chainId,
    {
      blockNumber: blockNumber === null ? null : BigInt(blockNumber),
      blockHash,
      transactionHash,
      logIndex: logIndex === null ? null : parseInt(logIndex, 16),
    },
    'NewCampaign',
  );

/** Every event of a range, whatever its kind (block numbers and hashes are read from all of them). */
export const allCampaignEvents = (logs: CampaignLogs) => [
  ...logs.newCampaigns,
  ...logs.overrides,
  ...logs.reallocations,
  ...logs.rewardTokenMinAmounts,
];

const lowerCaseAddresses = (e: NewCampaignEvent): NewCampaignEvent => ({
  ...e,
  creator: e.creator.toLowerCase() as Hex,
  rewardToken: e.rewardToken.toLowerCase() as Hex,
});

/**
 * Pure: raw eth_getLogs results of the campaign events → typed events. NewCampaign logs, nearly all
 * of them, are read straight from their hex data (decodeCampaignTupleData); any log the fast path
 * declines, and every other event, goes through viem's parseEventLogs (strict: a log that does not
 * decode as one of CAMPAIGN_EVENTS is dropped, as before).
 */
export function decodeCampaignLogs(chainId: number, logs: readonly RpcLog[]): CampaignLogs {
  const out: CampaignLogs = { newCampaigns: [], overrides: [], reallocations: [], rewardTokenMinAmounts: [] };
  for (const log of logs) {
    const tuple =
      log.topics.length === 1 && log.topics[0]?.toLowerCase() === NEW_CAMPAIGN_TOPIC
        ? decodeCampaignTupleData(log.data)
        : null;
    if (tuple) {
      out.newCampaigns.push({ ...rawPositionOf(chainId, log), ...tuple });
      continue;
    }
    for (const parsed of parseEventLogs({ abi: CAMPAIGN_EVENTS, logs: [formatLog(log) as Log], strict: true })) {
      if (parsed.eventName === 'NewCampaign')
        out.newCampaigns.push(lowerCaseAddresses(decodeNewCampaign(chainId, parsed)));
      else if (parsed.eventName === 'CampaignOverride') out.overrides.push(decodeCampaignOverride(chainId, parsed));
      else if (parsed.eventName === 'CampaignReallocation')
        out.reallocations.push(decodeCampaignReallocation(chainId, parsed));
      else out.rewardTokenMinAmounts.push(decodeRewardTokenMinAmount(chainId, parsed));
    }
  }
  return out;
}
