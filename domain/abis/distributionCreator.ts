import { parseAbi } from 'viem';

/**
 * The DistributionCreator interface we use: the events the indexer reads, the fee and minimum-amount
 * reads and the creation calls the payload builder encodes and simulates, and the contract's errors
 * (decoded from a failed simulation). See docs/contracts.md.
 */
export const distributionCreatorAbi = parseAbi([
  'struct CampaignParameters { bytes32 campaignId; address creator; address rewardToken; uint256 amount; uint32 campaignType; uint32 startTimestamp; uint32 duration; bytes campaignData; }',
  'event NewCampaign(CampaignParameters campaign)',
  'event CampaignOverride(bytes32 _campaignId, CampaignParameters campaign)',
  'event CampaignReallocation(bytes32 _campaignId, address[] from, address indexed to)',
  'event RewardTokenMinimumAmountUpdated(address indexed token, uint256 amount)',
  'function campaign(bytes32 _campaignId) view returns (CampaignParameters)',
  'function defaultFees() view returns (uint256)',
  'function feeRebate(address user) view returns (uint256)',
  'function rewardTokenMinAmounts(address token) view returns (uint256)',
  'function campaignSpecificFees(uint32 campaignType) view returns (uint256)',
  'function createCampaign(CampaignParameters newCampaign) returns (bytes32)',
  'function createCampaigns(CampaignParameters[] campaigns) returns (bytes32[])',
  'error CampaignDurationNull()',
  'error CampaignRewardTokenNotWhitelisted()',
  'error CampaignRewardTooLow()',
  'error CampaignAlreadyExists()',
  'error CampaignDoesNotExist()',
  'error InvalidOverride()',
  'error InvalidReallocation()',
  'error InvalidLengths()',
  'error InvalidParam()',
  'error ZeroAddress()',
  'error NotGovernor()',
  'error NotSigned()',
  'error OperatorNotAllowed()',
  'error ReentrantCall()',
  'error TokenTransferFailed(address token)',
]);

const event = <N extends string>(name: N) =>
  distributionCreatorAbi.find(
    (x): x is Extract<(typeof distributionCreatorAbi)[number], { type: 'event'; name: N }> =>
      x.type === 'event' && x.name === name,
  )!;

export const newCampaignEvent = event('NewCampaign');
export const campaignOverrideEvent = event('CampaignOverride');
export const campaignReallocationEvent = event('CampaignReallocation');
export const rewardTokenMinimumAmountUpdatedEvent = event('RewardTokenMinimumAmountUpdated');
/** The events the campaigns job indexes, fetched together (the whitelist's too, #33: GET /v4/tokens/reward). */
export const CAMPAIGN_EVENTS = [
  newCampaignEvent,
  campaignOverrideEvent,
  campaignReallocationEvent,
  rewardTokenMinimumAmountUpdatedEvent,
] as const;
