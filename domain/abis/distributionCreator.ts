import { parseAbi } from 'viem';

/** DistributionCreator events and reads we index (chain-facts §1.6, §6). */
export const distributionCreatorAbi = parseAbi([
  'struct CampaignParameters { bytes32 campaignId; address creator; address rewardToken; uint256 amount; uint32 campaignType; uint32 startTimestamp; uint32 duration; bytes campaignData; }',
  'event NewCampaign(CampaignParameters campaign)',
  'event CampaignOverride(bytes32 _campaignId, CampaignParameters campaign)',
  'event CampaignReallocation(bytes32 _campaignId, address[] from, address indexed to)',
  'function campaign(bytes32 _campaignId) view returns (CampaignParameters)',
]);

const event = <N extends string>(name: N) => distributionCreatorAbi.find((x): x is Extract<(typeof distributionCreatorAbi)[number], { type: 'event'; name: N }> => x.type === 'event' && x.name === name)!;

export const newCampaignEvent = event('NewCampaign');
export const campaignOverrideEvent = event('CampaignOverride');
export const campaignReallocationEvent = event('CampaignReallocation');
/** The events the campaigns job indexes, fetched together. */
export const CAMPAIGN_EVENTS = [newCampaignEvent, campaignOverrideEvent, campaignReallocationEvent] as const;
