import type { PgPool, Queryable } from '../../internal/pg.js';
import type { ChainRow } from '../../domain/documents/records.js';

/**
 * Chains with their live campaign count, private ones included (campaigns computed on the chain
 * whose start ≤ now < end), restricted to `ids` (the configured chains): what may be cached, as it
 * does not change with privacy. Served counts subtract countLivePrivateCampaigns. Tables chains, campaigns.
 */
export async function listChains(db: Queryable, ids: number[], nowSeconds: number): Promise<ChainRow[]> {
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
    `SELECT c.*, (SELECT count(*) FROM campaigns k WHERE k.compute_chain_id = c.id AND k.start_timestamp <= $2 AND k.end_timestamp > $2) AS live
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

/**
 * Live private campaigns per compute chain at `nowSeconds` (private campaigns are few: one read of
 * campaign_privacy's private rows). Tables campaign_privacy, campaigns.
 */
export async function countLivePrivateCampaigns(db: PgPool, nowSeconds: number): Promise<Map<number, number>> {
  const { rows } = await db.query<{ chain_id: number; live: number }>(
    `SELECT k.compute_chain_id AS chain_id, count(*)::int AS live
     FROM campaign_privacy p JOIN campaigns k ON k.id = p.campaign_db_id
     WHERE p.is_private AND k.start_timestamp <= $1 AND k.end_timestamp > $1 GROUP BY 1`,
    [nowSeconds],
  );
  return new Map(rows.map((r) => [r.chain_id, r.live]));
}
