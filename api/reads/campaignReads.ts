import type { PgPool } from '../../internal/pg.js';
import { visibilitySqlParams, visibleCampaignSql, type CampaignVisibility } from '../visibility/campaignVisibility.js';

type Queryable = Pick<PgPool, 'query'>;

/** A campaign of a parent/sub-campaign family, with its depth relative to the requested one. */
export type CampaignFamilyRow = {
  id: string;
  campaign_id: string;
  parent_campaign_id: string | null;
  distribution_chain_id: number;
  compute_chain_id: number;
  campaign_type: number;
  main_parameter: string | null;
  campaign_data: `0x${string}`;
  start_timestamp: string;
  end_timestamp: string;
  /** 0 for the requested campaign, negative for ancestors, positive for descendants. */
  depth: number;
  token_is_test: boolean | null;
  token_type: string | null;
};

/**
 * Internal ids of the campaigns created by one transaction on a distribution chain that the caller
 * may see, in log order. Tables: campaigns, campaign_privacy.
 */
export async function findCampaignIdsByTx(
  client: Queryable,
  chainId: number,
  txHash: string,
  visible: CampaignVisibility,
): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT c.id FROM campaigns c WHERE c.distribution_chain_id = $1 AND c.tx_hash = $2 AND ${visibleCampaignSql('c', 3, 4)}
     ORDER BY c.log_index`,
    [chainId, txHash.toLowerCase(), ...visibilitySqlParams(visible)],
  );
  return rows.map((r) => r.id);
}

/**
 * The family of a campaign: its chain of parents up to the root (depth < 0), itself (0) and its whole
 * sub-campaign subtree (depth > 0), each at most 32 levels, as the campaigns stand now (overrides applied).
 * Members `visible` does not allow are left out with what lies beyond them (their parents, their
 * subtrees): a private sub-campaign is not announced by its public parent's family.
 * Tables: campaigns, campaigns_current, campaign_privacy, tokens.
 */
export async function loadCampaignFamily(
  client: Queryable,
  dbId: string,
  visible: CampaignVisibility,
): Promise<CampaignFamilyRow[]> {
  // A member is visible when public, or readable by the caller; the walk stops at a hidden one.
  const shown = (alias: string) => visibleCampaignSql(alias, 2, 3);
  const { rows } = await client.query<CampaignFamilyRow>(
    `WITH RECURSIVE up(id, parent, depth) AS (
       SELECT id, parent_campaign_id, 0 FROM campaigns WHERE id = $1
       UNION ALL SELECT p.id, p.parent_campaign_id, up.depth - 1 FROM campaigns p JOIN up ON p.id = up.parent WHERE up.depth > -32 AND ${shown('p')}
     ), down(id, depth) AS (
       SELECT id, 0 FROM campaigns WHERE id = $1
       UNION ALL SELECT k.id, down.depth + 1 FROM campaigns k JOIN down ON k.parent_campaign_id = down.id WHERE down.depth < 32 AND ${shown('k')}
     ), fam AS (SELECT id, depth FROM up UNION SELECT id, depth FROM down)
     SELECT c.id, c.campaign_id, c.parent_campaign_id, c.distribution_chain_id, c.compute_chain_id, c.campaign_type, c.main_parameter,
       c.campaign_data, c.start_timestamp::text AS start_timestamp, c.end_timestamp::text AS end_timestamp, fam.depth,
       t.is_test AS token_is_test, t.type AS token_type
     FROM fam JOIN campaigns_current c ON c.id = fam.id
     LEFT JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token
     ORDER BY fam.depth, c.id`,
    [dbId, ...visibilitySqlParams(visible)],
  );
  return rows;
}

/** One history snapshot of a campaign (ts as Unix seconds). */
export type CampaignSnapshotRow = { ts: string; apr: number | null; tvl: number | null; daily_rewards: number | null };

/**
 * One page of a campaign's snapshots, oldest first, keeping only rows where `column` is set.
 * Tables: campaign_snapshots.
 */
export async function loadCampaignSnapshots(
  client: Queryable,
  dbId: string,
  column: 'apr' | 'tvl' | 'daily_rewards',
  page: number,
  limit: number,
): Promise<CampaignSnapshotRow[]> {
  const { rows } = await client.query<CampaignSnapshotRow>(
    `SELECT extract(epoch FROM ts)::bigint::text AS ts, apr, tvl, daily_rewards FROM campaign_snapshots
     WHERE campaign_db_id = $1 AND ${column} IS NOT NULL ORDER BY ts LIMIT $2 OFFSET $3`,
    [dbId, limit, page * limit],
  );
  return rows;
}

/** Every snapshot of a campaign, oldest first (for whole-history figures). Tables: campaign_snapshots. */
export async function loadAllCampaignSnapshots(client: Queryable, dbId: string): Promise<CampaignSnapshotRow[]> {
  const { rows } = await client.query<CampaignSnapshotRow>(
    'SELECT extract(epoch FROM ts)::bigint::text AS ts, apr, tvl, daily_rewards FROM campaign_snapshots WHERE campaign_db_id = $1 ORDER BY ts',
    [dbId],
  );
  return rows;
}

/** Amount, reward-token decimals and window of a campaign as it stands now. Tables: campaigns_current, tokens. */
export async function loadCampaignEmission(
  client: Queryable,
  dbId: string,
): Promise<{ amount: string; decimals: number; start: string; end: string } | null> {
  const { rows } = await client.query<{ amount: string; decimals: number; start: string; end: string }>(
    `SELECT c.amount::text AS amount, COALESCE(t.decimals, 18) AS decimals, c.start_timestamp::text AS start, c.end_timestamp::text AS end
     FROM campaigns_current c LEFT JOIN tokens t ON t.chain_id = c.distribution_chain_id AND t.address = c.reward_token WHERE c.id = $1`,
    [dbId],
  );
  return rows[0] ?? null;
}

/**
 * Distinct reward recipients of a campaign per verified reward tree, oldest root first (trees are
 * cumulative, so each point counts every wallet rewarded so far). Breakdowns name the campaign by its
 * on-chain id or its internal id; both are matched. Tables: reward_breakdowns, reward_trees, roots.
 */
export async function loadWalletCounts(
  client: Queryable,
  chainId: number,
  onChainId: string,
  dbId: string,
  page: number,
  limit: number,
): Promise<{ ts: string; wallet_count: number }[]> {
  const { rows } = await client.query<{ ts: string; wallet_count: number }>(
    `SELECT max(r.timestamp)::text AS ts, count(DISTINCT b.recipient)::int AS wallet_count
     FROM reward_breakdowns b
     JOIN reward_trees t ON t.chain_id = b.chain_id AND t.root = b.root AND t.status = 'verified'
     JOIN roots r ON r.chain_id = b.chain_id AND r.root = b.root AND NOT r.revoked
     WHERE b.chain_id = $1 AND lower(b.campaign_id) IN ($2, $3)
     GROUP BY b.root ORDER BY max(r.timestamp) LIMIT $4 OFFSET $5`,
    [chainId, onChainId.toLowerCase(), dbId, limit, page * limit],
  );
  return rows;
}
