import { toEventSelector, type Hex } from 'viem';
import { newCampaignEvent } from '../../domain/abis/distributionCreator.js';

const TRANSFER_TOPIC = toEventSelector('event Transfer(address indexed from, address indexed to, uint256 value)');
const NEW_CAMPAIGN_TOPIC = toEventSelector(newCampaignEvent);

/** A log of a transaction receipt, as viem returns it. */
export type ReceiptLog = { address: Hex; topics: readonly Hex[]; data: Hex; logIndex: number };

/** A campaign created by the transaction: its NewCampaign log and reward token (lower case). */
export type CreatedCampaign = { id: string; logIndex: number; rewardToken: string };

export type CampaignFeesParams = {
  logs: readonly ReceiptLog[];
  campaigns: readonly CreatedCampaign[];
  distributionCreator: string;
  distributor: string;
};

const topicAddress = (topic: Hex | undefined) => (topic ? `0x${topic.slice(-40)}`.toLowerCase() : '');

/**
 * Pure: the creation fee of each campaign of one transaction, from its receipt (campaign id → base units).
 * The DistributionCreator pulls the fee (to feeRecipient, or to itself) and then the net amount (to the
 * Distributor) just before each NewCampaign (docs/contracts.md#creating-campaigns), so a campaign's fee is
 * every reward-token Transfer between the previous NewCampaign of the transaction and its own that does
 * not go to the Distributor. A campaign funded from a predeposited balance moves no fee and gets 0.
 */
export function campaignFeesOfReceipt({
  logs,
  campaigns,
  distributionCreator,
  distributor,
}: CampaignFeesParams): Map<string, bigint> {
  const byLog = new Map(campaigns.map((c) => [c.logIndex, c]));
  const creator = distributionCreator.toLowerCase();
  const toDistributor = distributor.toLowerCase();
  const fees = new Map<string, bigint>();
  let pending: ReceiptLog[] = [];
  for (const log of [...logs].sort((a, b) => a.logIndex - b.logIndex)) {
    const topic = log.topics[0]?.toLowerCase();
    if (topic === TRANSFER_TOPIC && log.topics.length === 3) {
      pending.push(log);
      continue;
    }
    if (topic !== NEW_CAMPAIGN_TOPIC || log.address.toLowerCase() !== creator) continue;
    const campaign = byLog.get(log.logIndex);
    if (campaign) {
      const fee = pending
        .filter((t) => t.address.toLowerCase() === campaign.rewardToken && topicAddress(t.topics[2]) !== toDistributor)
        .reduce((sum, t) => sum + BigInt(t.data), 0n);
      fees.set(campaign.id, fee);
    }
    pending = [];
  }
  return fees;
}
