import { parseAbi } from 'viem';

/** DistributionCreator events and reads we index (chain-facts §1.6, §6). */
export const distributionCreatorAbi = parseAbi([
  'struct CampaignParameters { bytes32 campaignId; address creator; address rewardToken; uint256 amount; uint32 campaignType; uint32 startTimestamp; uint32 duration; bytes campaignData; }',
  'event NewCampaign(CampaignParameters campaign)',
  'event CampaignOverride(bytes32 _campaignId, CampaignParameters campaign)',
  'event CampaignReallocation(bytes32 _campaignId, address[] from, address indexed to)',
  'function campaign(bytes32 _campaignId) view returns (CampaignParameters)',
]);

export const newCampaignEvent = distributionCreatorAbi.find((x) => x.type === 'event' && x.name === 'NewCampaign')!;
