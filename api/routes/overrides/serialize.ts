import { opportunityName } from '../../../domain/documents/opportunityDocument.js';
import type { CampaignVersionRow } from './repo.js';

/** The opportunity a previous configuration was linked to (docs/api-behaviour.md#overrides). */
export type PreviousConfigOpportunity = {
  id: string;
  chainId: number;
  type: string;
  identifier: string;
  name: string;
  description?: string;
};

/**
 * One previous configuration (docs/api-behaviour.md#overrides). `id` is the key of the event that set it
 * (`chainId-txHash-logIndex` of the creation or override log); `overrideTimestamp` is when it took
 * effect (Unix seconds of that block); `config` is the full configuration: the decoded campaign
 * data fields, then the common fields (which win on a name clash).
 */
export type PreviousConfig = {
  id: string;
  campaignId: string;
  opportunityId: string | null;
  config: Record<string, unknown>;
  overrideTimestamp: number;
  Opportunity: PreviousConfigOpportunity | null;
};

/** Pure: a version row → the public previous-config shape. */
export function serializePreviousConfig(row: CampaignVersionRow): PreviousConfig {
  const start = Number(row.start_timestamp);
  const end = Number(row.end_timestamp);
  const config = {
    ...row.params,
    campaignId: row.campaign_id,
    distributionChainId: row.distribution_chain_id,
    computeChainId: row.compute_chain_id,
    campaignType: row.campaign_type,
    creator: row.creator,
    rewardToken: row.reward_token,
    amount: row.amount,
    startTimestamp: start,
    endTimestamp: end,
    duration: end - start,
    campaignData: row.campaign_data,
    mainParameter: row.main_parameter,
  };
  let opportunity: PreviousConfigOpportunity | null = null;
  if (row.opportunity_id && row.opp_type && row.opp_identifier && row.opp_chain_id !== null) {
    const name = opportunityName({
      action: row.opp_action ?? '',
      type: row.opp_type,
      identifier: row.opp_identifier,
      target: row.target_symbol ? { symbol: row.target_symbol } : null,
      underlying: row.underlying,
    } as Parameters<typeof opportunityName>[0]);
    opportunity = {
      id: row.opportunity_id,
      chainId: row.opp_chain_id,
      type: row.opp_type,
      identifier: row.opp_identifier,
      name,
      ...(row.chain_name
        ? { description: `Earn rewards on ${row.chain_name}: ${name.charAt(0).toLowerCase()}${name.slice(1)}.` }
        : {}),
    };
  }
  return {
    id: row.event_key,
    campaignId: row.campaign_id,
    opportunityId: row.opportunity_id,
    config,
    overrideTimestamp: Number(row.effective_at),
    Opportunity: opportunity,
  };
}

/** Pure: every configuration but the current one (the last), oldest first. */
export function previousConfigs(rows: CampaignVersionRow[]): PreviousConfig[] {
  return rows.slice(0, -1).map(serializePreviousConfig);
}
