/** The fields of the API's records the explorer reads (the API contract: Opportunity, Campaign). */
export type Token = {
  id: string;
  symbol: string;
  name: string;
  address: string;
  decimals: number;
  type: string;
  price: number | null;
  chainId: number;
};
export type Chain = { id: number; name: string; explorers?: { type: string; url: string }[] };
export type Protocol = { id: string; name: string };
/** A program as GET /v4/programs serves it (the fields the explorer reads). */
export type Program = { id: string; slug: string; name: string };
/** A program an opportunity belongs to (`activePrograms`). */
export type ActiveProgram = { id: string; name: string; slug?: string | null; description?: string; icon?: string };

export type Opportunity = {
  id: string;
  chainId: number;
  type: string;
  identifier: string;
  name: string;
  status: string;
  action: string;
  mainProtocol: string;
  tvl: number;
  /** Why the TVL is known (`ok`) or not: then `tvl` and `apr` are served as 0 (web/explorer/tvlText.ts). */
  tvlRecord?: { status?: string };
  apr: number;
  dailyRewards: number;
  /** The protocol's own yield (%), served as 0 when unknown: `nativeAprRecord.status` says which. */
  nativeApr: number;
  nativeAprRecord?: { status?: string; description?: string };
  /** Reward tokens apr and dailyRewards leave out for want of a price (absent when all are priced). */
  unpricedRewardTokens?: string[];
  liveCampaigns: number;
  tokens: Token[];
  chain: Chain;
  protocol: Protocol | null;
  /** The programs it belongs to (their slugs are what the `programSlugs` filter takes). */
  activePrograms?: ActiveProgram[];
  depositUrl: string;
  explorerAddress: string;
};

export type Campaign = {
  id: string;
  campaignId: string;
  type: string;
  subType: number | null;
  amount: string;
  startTimestamp: string;
  endTimestamp: string;
  creatorAddress: string;
  apr: number;
  dailyRewards: number;
  unpricedRewardTokens?: string[];
  rewardToken: Token;
  opportunityId: string;
  distributionType: string;
  campaignStatus: { status: string; computedUntil?: number } | null;
  computeChainId: number;
  distributionChainId: number;
  createdAt: string | number;
  rootCampaignId: string | null;
  parentCampaignId: string | null;
  childCampaignIds: string[];
  params: Record<string, unknown>;
  chain: Chain;
  distributionChain?: Chain;
  hasOverrides: boolean;
};

export type LinkedCampaign = {
  campaignId: string;
  parentCampaignId: string | null;
  onChainCampaignId: string;
  type: string;
  startTimestamp: string;
  endTimestamp: string;
  depth: number;
  self: boolean;
};

export type CampaignMetrics = {
  tvlRecords: { timestamp: string; total: number }[];
  aprRecords: { timestamp: string; apr: number }[];
  dailyRewardsRecords: { timestamp: string; total: number; totalInToken: number }[];
};
