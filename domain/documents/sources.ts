import type { ProgramSummary } from '../tables/programs.js';
import type { TvlStatus } from '../tvlStatus.js';
import type { CampaignRecord, OpportunityRecord } from './records.js';
/** The PostgreSQL rows search documents are built from (loaded by the projector, indexer/store/*Sources.ts). */

/** A campaign as it stands now (latest override applied) joined with its reward token. */
export type CampaignSource = {
  id: string;
  distribution_chain_id: number;
  compute_chain_id: number;
  campaign_id: string;
  creator: string;
  reward_token: string;
  amount: string;
  campaign_type: number;
  start_timestamp: string;
  end_timestamp: string;
  campaign_data: `0x${string}`;
  main_parameter: string | null;
  opportunity_id: string | null;
  /** The protocol the back office gave the campaign's opportunity (opportunities.main_protocol_id); null: its type's. */
  opportunity_main_protocol_id?: string | null;
  params: Record<string, unknown>;
  has_overrides: boolean;
  /** Set by the creator or the back office (campaign_privacy); false when never set. */
  is_private: boolean;
  parent_campaign_id: string | null;
  /** Topmost ancestor of a sub-campaign; null for a campaign without parent. */
  root_campaign_id: string | null;
  child_campaign_ids: string[];
  created_at: Date;
  token_id: string | null;
  token_name: string | null;
  token_symbol: string | null;
  token_decimals: number | null;
  token_icon: string | null;
  token_verified: boolean | null;
  token_is_native: boolean | null;
  token_is_test: boolean | null;
  token_type: 'TOKEN' | 'PRETGE' | 'POINT' | null;
  token_display_symbol: string | null;
  token_price: number | null;
  token_price_source: string | null;
  token_price_updated_at: Date | null;
  /** Latest metrics job output for the campaign (null before its first run). */
  metric_apr: number | null;
  metric_daily_rewards: number | null;
  metric_daily_amount: string | null;
  metric_computed_at: Date | null;
  /** The campaignStatus the metrics job stored (CampaignStatusRecord, a Campaign record's `campaignStatus`). */
  metric_campaign_status: CampaignRecord['campaignStatus'] | null;
  /** The registered creator whose addresses include the campaign's creator (creators table), if any. */
  creator_id?: string | null;
  creator_tags?: string[] | null;
};

export type OpportunityCampaign = {
  id: string;
  campaign_id: string;
  creator: string;
  /** The registered creator (creators table) whose addresses include `creator`, if any. */
  creator_id?: string | null;
  reward_token: string;
  reward_symbol: string | null;
  reward_type: 'TOKEN' | 'PRETGE' | 'POINT' | null;
  /** Internal id of the parent campaign of a sub-campaign, else null. */
  parent_campaign_id?: string | null;
  /** Whether the reward token is a test token (absent in sources built before the flag was loaded). */
  reward_is_test?: boolean | null;
  amount: string;
  campaign_type: number;
  start_timestamp: string;
  end_timestamp: string;
  params: Record<string, unknown>;
  created_at: Date;
};

export type OpportunityTarget = {
  id: string;
  name: string | null;
  address: string;
  symbol: string;
  decimals: number;
  icon: string;
  verified: boolean;
  is_native: boolean;
  is_test: boolean;
  type: 'TOKEN' | 'PRETGE' | 'POINT';
  is_stablecoin: boolean;
  price: number | null;
  price_source: string | null;
  price_updated_at: string | null;
};

/** The underlying of an opportunity as the projection loads it (fee in hundredths of a bip, LLTV WAD). */
export type OpportunityUnderlyingSource = {
  fee: number | null;
  lltv: string | null;
  /** What a block explorer can show (pool, PoolManager, Morpho Blue contract). */
  contract: string;
  tokens: { address: string; token: (OpportunityTarget & { display_symbol?: string | null }) | null }[];
};

export type OpportunitySource = {
  id: string;
  chain_id: number;
  type: string;
  identifier: string;
  action: string;
  /** Curated by the back office. */
  tags: string[];
  program_slugs: string[];
  /** Its protocol as the back office set it (any protocol of the catalogue); null or absent: its campaign type's. */
  main_protocol_id?: string | null;
  /** The programs its program_slugs name (domain/tables/programs.ts); absent in sources built before programs existed. */
  programs?: ProgramSummary[];
  campaigns: OpportunityCampaign[];
  /** The identifier's token row when the identifier is a token on the opportunity's chain. */
  target: OpportunityTarget | null;
  /**
   * What a pool or market stands on (opportunity_underlying, read by the metrics job): its tokens in
   * the protocol's order, each with its row when stored (null until then); null before the first read
   * or for an opportunity that is no pool or market. Absent in sources built before it existed.
   */
  underlying?: OpportunityUnderlyingSource | null;
  /** Latest metrics job output (null before its first run). */
  metrics: {
    /** Null when unknown (tvl_status says why, #42). */
    tvl: number | null;
    /** Null when the TVL is unknown. */
    apr: number | null;
    daily_rewards: number;
    native_apr: number;
    max_daily_rewards: number | null;
    /** The records the metrics job stored (computeOpportunityMetrics); rows written before one existed lack it. */
    records: StoredOpportunityRecords;
    /** Reward tokens (ids) the figures leave out for want of a fresh price (absent in rows read before it existed). */
    unpriced_reward_tokens?: string[];
    /** Why the TVL is known or not (TvlStatus; absent in rows read before it existed). */
    tvl_status?: TvlStatus;
  } | null;
};

/** A stored tvlRecord: rows and documents written before its status existed lack it (`ok` or `read-failed` then). */
export type StoredTvlRecord = Omit<OpportunityRecord['tvlRecord'], 'status'> & { status?: TvlStatus };

/** opportunity_metrics.records: the Opportunity record's records as the metrics job computed them, each absent in rows written before it existed. */
export type StoredOpportunityRecords = Partial<
  Pick<OpportunityRecord, 'aprRecord' | 'nativeAprRecord' | 'rewardsRecord'> & { tvlRecord: StoredTvlRecord }
>;
