import { campaignTypeName } from '../../../domain/campaignTypes.js';
import type { ChainConfig } from '../../../internal/config.js';
import type { TxCampaignRow } from './repo.js';

/** Pure: a transaction's page on the chain's first block explorer, or null for a chain without one. */
export function explorerTxUrl(chain: Pick<ChainConfig, 'explorers'> | undefined, hash: string): string | null {
  const explorer = chain?.explorers[0];
  return explorer ? `${explorer.url.replace(/\/+$/, '')}/tx/${hash}` : null;
}

/** A campaign as the hosted `transactions/campaigns` lists it in `extendedCampaigns`. */
export type ExtendedCampaign = {
  campaignId: string;
  mainParameter: string | null;
  amount: string;
  rewardToken: string;
  startTimestamp: number;
  endTimestamp: number;
  chainId: number;
  computeChainId: number;
  campaignType: string;
  campaignSubType: number;
  creator: string;
  index: number;
  campaignParameters: Record<string, unknown>;
  /** Beyond the hosted shape: our internal id (GET /v4/campaigns/{id}). */
  id: string;
};

/**
 * Pure: the campaigns of a creation transaction in the hosted `transactions/campaigns` shape: their
 * on-chain ids, the stored configurations they name (deduplicated), and each campaign as it stands
 * now (`index` its position among the transaction's campaigns, `campaignSubType` 0: sub-types are
 * not indexed here).
 */
export function transactionCampaigns(rows: TxCampaignRow[]) {
  const configs = new Map<string, unknown>();
  for (const r of rows) for (const c of r.configs) configs.set(JSON.stringify(c), c);
  return {
    campaignIds: rows.map((r) => r.campaign_id),
    configs: [...configs.values()],
    extendedCampaigns: rows.map(
      (r, index): ExtendedCampaign => ({
        campaignId: r.campaign_id,
        mainParameter: r.main_parameter,
        amount: r.amount,
        rewardToken: r.reward_token,
        startTimestamp: Number(r.start_timestamp),
        endTimestamp: Number(r.end_timestamp),
        chainId: r.distribution_chain_id,
        computeChainId: r.compute_chain_id,
        campaignType: campaignTypeName(r.campaign_type),
        campaignSubType: 0,
        creator: r.creator,
        index,
        campaignParameters: r.params,
        id: r.id,
      }),
    ),
  };
}
