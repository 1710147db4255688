import type { ChainConfig } from '../../internal/config.js';
import type { PgPool } from '../../internal/pg.js';
import type { ChainRow } from '../../domain/documents/records.js';

/** Writes the configured chains' static fields (name, icon, explorers, test flag). */
export async function upsertChains(db: PgPool, chains: ChainConfig[]): Promise<void> {
  await db.query(
    `INSERT INTO chains (id, name, icon, explorers, is_test)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::jsonb[], $5::bool[])
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, icon = EXCLUDED.icon, explorers = EXCLUDED.explorers,
       is_test = EXCLUDED.is_test, updated_at = now()`,
    [chains.map((c) => c.id), chains.map((c) => c.name), chains.map((c) => c.icon), chains.map((c) => JSON.stringify(c.explorers)), chains.map((c) => c.test)],
  );
}

/**
 * Chains with their live campaign count (campaigns computed on the chain whose
 * start ≤ now < end), restricted to `ids` (the configured chains).
 */
export async function listChains(db: PgPool, ids: number[], nowSeconds: number): Promise<ChainRow[]> {
  const { rows } = await db.query<{
    id: number; name: string; icon: string; explorers: { type: string; url: string }[]; is_test: boolean;
    end_of_dispute_period: string; last_claims_onchain_fetch_at: Date | null; live: string;
  }>(
    `SELECT c.*, (SELECT count(*) FROM campaigns k WHERE k.compute_chain_id = c.id AND k.start_timestamp <= $2 AND k.end_timestamp > $2) AS live
     FROM chains c WHERE c.id = ANY($1::int[]) ORDER BY c.id`,
    [ids, nowSeconds],
  );
  return rows.map((r) => ({
    id: r.id, name: r.name, icon: r.icon, explorers: r.explorers, isTest: r.is_test,
    endOfDisputePeriod: Number(r.end_of_dispute_period), lastClaimsOnchainFetchAt: r.last_claims_onchain_fetch_at, liveCampaigns: Number(r.live),
  }));
}
