import type { PgPool } from '../../internal/pg.js';
import type { ChainRow } from '../../domain/documents/records.js';
import { publicCampaignSql } from '../visibility/campaignVisibility.js';

/**
 * Chains with their live public campaign count (campaigns computed on the chain whose
 * start ≤ now < end), restricted to `ids` (the configured chains). Tables chains, campaigns, campaign_privacy.
 */
export async function listChains(db: PgPool, ids: number[], nowSeconds: number): Promise<ChainRow[]> {
  const { rows } = await db.query<{
    id: number;
    name: string;
    icon: string;
    explorers: { type: string; url: string }[];
    is_test: boolean;
    end_of_dispute_period: string;
    last_claims_onchain_fetch_at: Date | null;
    live: string;
  }>(
    `SELECT c.*, (SELECT count(*) FROM campaigns k WHERE k.compute_chain_id = c.id AND k.start_timestamp <= $2 AND k.end_timestamp > $2
       AND ${publicCampaignSql('k')}) AS live
     FROM chains c WHERE c.id = ANY($1::int[]) ORDER BY c.id`,
    [ids, nowSeconds],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    icon: r.icon,
    explorers: r.explorers,
    isTest: r.is_test,
    endOfDisputePeriod: Number(r.end_of_dispute_period),
    lastClaimsOnchainFetchAt: r.last_claims_onchain_fetch_at,
    liveCampaigns: Number(r.live),
  }));
}
