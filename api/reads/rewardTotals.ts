import type { PgClient, PgPool } from '../../internal/pg.js';
import { loadLiveRoot } from './roots.js';

type Db = Pick<PgPool | PgClient, 'query'>;

/** The chain's live root (loadLiveRoot) and its tree's seq, when that tree is verified; else null. */
export async function loadLiveTree(
  db: PgPool | PgClient,
  chainId: number,
): Promise<{ root: string; seq: string } | null> {
  const live = await loadLiveRoot(db, chainId);
  if (live?.treeStatus !== 'verified') return null;
  const { rows } = await db.query<{ seq: string | null }>(
    'SELECT seq::text AS seq FROM reward_trees WHERE chain_id = $1 AND root = $2',
    [chainId, live.root],
  );
  return rows[0]?.seq ? { root: live.root, seq: rows[0].seq } : null;
}

/** Totals of a key in one tree: token units (decimal string) and recipients. */
export type TreeTotal = { token: string; amount: string; recipients: number };

/**
 * A campaign's totals per reward token in the tree `seq` of `chainId`: the latest row of each
 * (campaign, token) at or before it (sql/migrations/2026_11_30_07_reward_totals.sql). `campaignId`
 * as the tree states it (lower-case hex) or as given. Table reward_campaign_totals.
 */
export async function campaignTotalsAt(db: Db, chainId: number, campaignId: string, seq: string): Promise<TreeTotal[]> {
  const { rows } = await db.query<TreeTotal>(
    `SELECT DISTINCT ON (token) token, amount::text AS amount, recipients FROM reward_campaign_totals
     WHERE chain_id = $1 AND campaign_id IN ($2, lower($2)) AND seq <= $3 ORDER BY token, seq DESC`,
    [chainId, campaignId, seq],
  );
  return rows.filter((r) => r.amount !== '0' || r.recipients > 0);
}

/**
 * A token's totals in the tree `seq` of `chainId`, without what `hidden` campaigns (lower-case
 * on-chain ids) hold of it: their amounts (from their own totals) and the recipients whose leaf
 * holds nothing but theirs (read over their breakdowns only, so the cost follows the hidden
 * campaigns, not the token). Tables reward_token_totals, reward_campaign_totals, reward_breakdown_versions.
 */
export async function tokenTotalsAt(
  db: Db,
  chainId: number,
  token: string,
  seq: string,
  hidden: ReadonlySet<string>,
): Promise<{ amount: string; recipients: number }> {
  const { rows } = await db.query<{ amount: string; recipients: number }>(
    `SELECT coalesce((SELECT amount FROM reward_token_totals WHERE chain_id = $1 AND token = $2 AND seq <= $3 ORDER BY seq DESC LIMIT 1), 0)
       - coalesce((SELECT sum(x.amount) FROM unnest($4::text[]) h(campaign_id) CROSS JOIN LATERAL (
           SELECT t.amount FROM reward_campaign_totals t WHERE t.chain_id = $1 AND t.campaign_id = h.campaign_id AND t.token = $2 AND t.seq <= $3
           ORDER BY t.seq DESC LIMIT 1) x), 0) AS amount,
     coalesce((SELECT recipients FROM reward_token_totals WHERE chain_id = $1 AND token = $2 AND seq <= $3 ORDER BY seq DESC LIMIT 1), 0)
       - (SELECT count(DISTINCT b.recipient) FROM reward_breakdown_versions b
          WHERE b.chain_id = $1 AND b.campaign_id = ANY($4::text[]) AND b.token = $2
            AND b.since_seq <= $3 AND (b.until_seq IS NULL OR b.until_seq > $3)
            AND NOT EXISTS (SELECT 1 FROM reward_breakdown_versions o WHERE o.chain_id = $1 AND o.recipient = b.recipient AND o.token = $2
              AND o.campaign_id <> ALL($4::text[]) AND o.since_seq <= $3 AND (o.until_seq IS NULL OR o.until_seq > $3)))::int AS recipients`,
    [chainId, token.toLowerCase(), seq, [...hidden]],
  );
  return { amount: rows[0]!.amount, recipients: rows[0]!.recipients };
}

/** What was claimed of `token` on `chainId` in total (the per-recipient totals kept by the claims trigger, claimed_totals_chain_token_idx). */
export async function claimedOfToken(db: Db, chainId: number, token: string): Promise<bigint> {
  const { rows } = await db.query<{ claimed: string }>(
    'SELECT coalesce(sum(amount), 0)::text AS claimed FROM claimed_totals WHERE chain_id = $1 AND token = $2',
    [chainId, token.toLowerCase()],
  );
  return BigInt(rows[0]!.claimed);
}

/**
 * What the recipients of campaign `campaignId` have not claimed of it in the tree `seq`: the rows kept
 * for the latest stored trees of each chain (reward_campaign_unclaimed, one indexed read; see
 * sql/migrations/2026_12_03_02_reward_campaign_unclaimed.sql), else summed at read time
 * (unclaimedOfCampaignNow). Tables reward_unclaimed_trees, reward_campaign_unclaimed.
 */
export async function unclaimedOfCampaign(db: Db, chainId: number, seq: string, campaignId: string): Promise<string> {
  const { rows } = await db.query<{ unclaimed: string }>(
    `SELECT (SELECT coalesce(sum(u.amount), 0)::text FROM reward_campaign_unclaimed u
       WHERE u.chain_id = $1 AND u.seq = $2 AND u.campaign_id IN ($3, lower($3))) AS unclaimed
     FROM reward_unclaimed_trees WHERE chain_id = $1 AND seq = $2`,
    [chainId, seq, campaignId],
  );
  return rows[0]?.unclaimed ?? unclaimedOfCampaignNow(db, chainId, seq, campaignId);
}

/**
 * What the recipients of campaign `campaignId` have not claimed of it in the tree `seq`: each
 * recipient's pending amount of the token (leaf − claimed, never negative) shared among the
 * campaigns of the leaf pro rata of their breakdowns (claims are per recipient and token, not per
 * campaign), rounded down, summed in PostgreSQL over the campaign's breakdown versions valid at
 * `seq` (reward_breakdown_versions_campaign_amount_idx), each with its leaf version and its
 * recipient's claimed total (claimed_totals, sql/migrations/2026_12_01_34_claimed_totals.sql)
 * read by key — not through the `rewards` view, which joins every leaf of the chain. The definition
 * the kept rows follow (reward_unclaimed_share is this sum's term); a cost per recipient of the campaign.
 * Tables reward_breakdown_versions, reward_leaf_versions, claimed_totals.
 */
export async function unclaimedOfCampaignNow(
  db: Db,
  chainId: number,
  seq: string,
  campaignId: string,
): Promise<string> {
  const { rows } = await db.query<{ unclaimed: string }>(
    `SELECT coalesce(sum(CASE WHEN l.amount = 0 THEN 0 ELSE
       trunc(b.amount * greatest(l.amount - coalesce(k.amount, 0), 0) / l.amount) END), 0)::text AS unclaimed
     FROM reward_breakdown_versions b
     CROSS JOIN LATERAL (SELECT v.amount FROM reward_leaf_versions v
       WHERE v.chain_id = b.chain_id AND v.recipient = b.recipient AND v.token = b.token
         AND v.since_seq <= $2 AND (v.until_seq IS NULL OR v.until_seq > $2)) l
     LEFT JOIN claimed_totals k ON k.chain_id = b.chain_id AND k.recipient = b.recipient AND k.token = b.token
     WHERE b.chain_id = $1 AND b.campaign_id IN ($3, lower($3))
       AND b.since_seq <= $2 AND (b.until_seq IS NULL OR b.until_seq > $2)`,
    [chainId, seq, campaignId],
  );
  return rows[0]!.unclaimed;
}
