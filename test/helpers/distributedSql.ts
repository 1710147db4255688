import type { Queryable } from '../../internal/pg.js';

/** What one campaign distributed over every live root, recomputed in plain SQL (distributedByCampaignSql). */
export type DistributedCampaign = { campaign_id: string; opportunity_id: string | null; usd: number };

/**
 * Sets one daily close (`price` USD) for every reward token of `chainId` on the day before its first
 * root: every root is then valued at that price (the latest close on or before its day).
 */
export async function setRewardTokenClose(db: Queryable, chainId: number, price: number): Promise<void> {
  await db.query(
    `INSERT INTO token_price_history (token_id, day, open, close, min, max, source, updated_at)
     SELECT tk.id, (to_timestamp((SELECT min(timestamp) FROM roots WHERE chain_id = $1)) AT TIME ZONE 'UTC')::date - 1,
       $2, $2, $2, $2, 'test', now()
     FROM tokens tk WHERE tk.chain_id = $1 AND lower(tk.address) IN (SELECT DISTINCT token FROM reward_breakdowns)
     ON CONFLICT (token_id, day) DO UPDATE SET close = $2`,
    [chainId, price],
  );
}

/**
 * USD each campaign of `chainId` distributed, recomputed independently of the API's per-tree totals:
 * per verified, unrevoked root up to the live one, the sums of its stored breakdowns minus the root
 * before's, at `price` per whole token; only the campaigns the default campaign filters keep (reward
 * token not a test token, not private), with the campaign's opportunity.
 */
export async function distributedByCampaign(
  db: Queryable,
  chainId: number,
  price: number,
): Promise<DistributedCampaign[]> {
  const { rows } = await db.query<DistributedCampaign>(
    `WITH live AS (
       SELECT block_number, log_index FROM roots r JOIN reward_trees t USING (chain_id, root)
       WHERE r.chain_id = $1 AND NOT r.revoked AND t.status = 'verified' ORDER BY block_number DESC, log_index DESC LIMIT 1),
     counted AS (
       SELECT r.root, lag(r.root) OVER (ORDER BY r.block_number, r.log_index) AS prev,
         (r.block_number, r.log_index) <= (SELECT block_number, log_index FROM live) AS upto
       FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified'
       WHERE r.chain_id = $1 AND NOT r.revoked),
     sums AS (SELECT root, lower(campaign_id) AS campaign_id, token, sum(amount) AS amount
       FROM reward_breakdowns WHERE chain_id = $1 GROUP BY 1, 2, 3),
     deltas AS (
       SELECT n.campaign_id, n.token, n.amount - coalesce(o.amount, 0) AS delta
       FROM counted c JOIN sums n ON n.root = c.root
       LEFT JOIN sums o ON o.root = c.prev AND o.campaign_id = n.campaign_id AND o.token = n.token
       WHERE c.upto AND n.amount <> coalesce(o.amount, 0))
     SELECT d.campaign_id, cc.opportunity_id, sum(d.delta::float8 / 10 ^ tk.decimals * $2)::float8 AS usd
     FROM deltas d
     JOIN campaigns_current cc ON cc.distribution_chain_id = $1 AND lower(cc.campaign_id) = d.campaign_id
     JOIN tokens rt ON rt.chain_id = $1 AND lower(rt.address) = lower(cc.reward_token)
     JOIN tokens tk ON tk.chain_id = $1 AND lower(tk.address) = d.token
     WHERE NOT rt.is_test AND NOT EXISTS (SELECT 1 FROM campaign_privacy pv WHERE pv.campaign_db_id = cc.id AND pv.is_private)
     GROUP BY 1, 2 ORDER BY 1`,
    [chainId, price],
  );
  return rows;
}
