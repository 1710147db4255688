import type { Queryable, StatementArgs } from '../../../internal/pg.js';
import { storedCampaignIds } from '../../reads/storedCampaignIds.js';
import type { BreakdownsQuery } from './schema.js';
import { bindTreeScope, claimedLeavesSql, mergedPageSql, treeScopeFilter, validAt, type TreeScope } from './treeSql.js';

export type BreakdownRow = {
  recipient: string;
  campaign_id: string;
  reason: string;
  amount: string;
  claimed: string;
  opportunity_id: string | null;
  opportunity_name: string | null;
};
export type BreakdownsTotals = { total_count: number; total_amount: string; total_claimed: string };

type Bound = {
  args: StatementArgs;
  p: TreeScope;
  /** The breakdowns of the token valid in the tree, with the query's filters, on alias `b`. */
  where: string;
  /** The parameter holding the campaign filter's stored ids, or null without the filter. */
  campaigns: string | null;
  /**
   * Leads an amount order: with one stored id, the campaign's (a constant, so the order is the same) to walk
   * reward_breakdown_versions_campaign_amount_idx, not every breakdown of the token by amount.
   */
  lead: string;
};

/** The statement's parameters and filter; `campaignIds`: the ids the campaign filter is stored under. */
function bind(q: BreakdownsQuery, seq: string, campaignIds: string[] | null): Bound {
  const { args, p } = bindTreeScope(q, seq);
  let where = treeScopeFilter('b', p);
  const campaigns = campaignIds ? args.add(campaignIds) : null;
  const single = campaignIds?.length === 1;
  // One id is compared by equality: an index walk in order can use it (ANY(array) it cannot, in PostgreSQL 15).
  if (campaigns)
    where += single
      ? ` AND b.campaign_id = (${campaigns}::text[])[1]`
      : ` AND b.campaign_id = ANY(${campaigns}::text[])`;
  return { args, p, where, campaigns, lead: single ? 'b.campaign_id, ' : '' };
}

/**
 * SQL: the matching breakdowns of the leaves whose recipient claimed something, each with its pro-rata share
 * of the claim (rounded down; the largest remainder is not handed out, as before). Every other breakdown's
 * share is 0.
 */
function claimedPartsSql({ p, where }: Bound): string {
  // Looked up per claimer (OFFSET 0 keeps the subquery apart), never a pass over every breakdown of the token.
  return `SELECT c.recipient, b.campaign_id AS stored_id, lower(b.campaign_id) AS campaign_id, b.reason, b.amount,
      floor(b.amount * c.claimed / c.amount) AS claimed
    FROM (${claimedLeavesSql(p)}) c
    CROSS JOIN LATERAL (SELECT b.campaign_id, b.reason, b.amount FROM reward_breakdown_versions b
      WHERE b.recipient = c.recipient AND ${where} OFFSET 0) b
    WHERE c.amount > 0`;
}

/**
 * One page of the per-campaign breakdowns of a token's leaves in the tree `seq` (recipient and campaign
 * filters, sort, paging), each with its pro-rata share of what its recipient claimed and its opportunity,
 * and the count and sums over every matching breakdown. Bounded at a million leaves (issue #30; it joined
 * every breakdown with every leaf's claims and sorted them all, 5.2–5.5 s):
 * - the count and amount are the tree's rows of the token or the campaign in reward_breakdown_totals, the
 *   claimed sum is read over the breakdowns of the recipients who claimed (claimed_totals);
 * - a page walks the breakdowns in its order by index as far as offset + items; sorted by claimed or
 *   pending, the breakdowns with a positive share and the others (share 0) are each walked that far and merged.
 * Tables reward_breakdown_versions, reward_breakdown_totals, reward_leaf_versions, claimed_totals, campaigns,
 * opportunities, reward_campaign_totals (the campaign's stored ids).
 */
export async function breakdownsPage(
  pg: Queryable,
  q: BreakdownsQuery,
  seq: string,
): Promise<{ rows: BreakdownRow[]; totals: BreakdownsTotals }> {
  const campaignIds = q.campaignId ? await storedCampaignIds(pg, q.chainId, q.campaignId.toLowerCase()) : null;
  const [rows, totals] = await Promise.all([
    pageRows(pg, q, bind(q, seq, campaignIds)),
    breakdownsTotals(pg, bind(q, seq, campaignIds)),
  ]);
  return { rows, totals };
}

async function pageRows(pg: Queryable, q: BreakdownsQuery, bound: Bound): Promise<BreakdownRow[]> {
  const { args, p, where, lead } = bound;
  const items = args.add(q.items);
  const offset = args.add(q.page * q.items);
  const reach = args.add(q.page * q.items + q.items);
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  const ties = 'b.recipient, lower(b.campaign_id), b.reason';
  let ctes: string;
  if (q.sort === 'amount' || q.sort === 'recipient') {
    const order = q.sort === 'amount' ? `${lead}b.amount ${dir}, ${ties}` : `b.recipient ${dir}, ${ties}`;
    ctes = `cand AS (
      SELECT b.recipient, lower(b.campaign_id) AS campaign_id, b.reason, b.amount,
        CASE WHEN l.amount IS NULL OR l.amount = 0 THEN 0 ELSE floor(b.amount * least(l.amount, k.amount) / l.amount) END AS claimed
      FROM reward_breakdown_versions b
      LEFT JOIN claimed_totals k ON k.chain_id = b.chain_id AND k.recipient = b.recipient AND k.token = b.token
      LEFT JOIN LATERAL (SELECT v.amount FROM reward_leaf_versions v WHERE k.amount IS NOT NULL
        AND v.chain_id = b.chain_id AND v.recipient = b.recipient AND v.token = b.token AND ${validAt('v', p.seq)}) l ON true
      WHERE ${where} ORDER BY ${order} LIMIT ${reach})`;
  } else {
    // Breakdowns with a positive share, and the others (share 0: pending is the amount).
    const key = q.sort === 'claimed' ? 'claimed' : 'pending';
    const tailOrder = q.sort === 'claimed' ? ties : `${lead}b.amount ${dir}, ${ties}`;
    ctes = `parts AS MATERIALIZED (${claimedPartsSql(bound)}),
      cand AS (${mergedPageSql({
        columns: '*',
        parts: [
          `SELECT x.recipient, x.campaign_id, x.reason, x.amount, x.claimed, x.amount - x.claimed AS pending FROM parts x
           WHERE x.claimed > 0 ORDER BY ${key} ${dir}, x.recipient, x.campaign_id, x.reason LIMIT ${reach}`,
          `SELECT b.recipient, lower(b.campaign_id) AS campaign_id, b.reason, b.amount, 0::numeric AS claimed, b.amount AS pending
           FROM reward_breakdown_versions b WHERE ${where} AND NOT EXISTS (SELECT 1 FROM parts x
             WHERE x.recipient = b.recipient AND x.stored_id = b.campaign_id AND x.reason = b.reason AND x.claimed > 0)
           ORDER BY ${tailOrder} LIMIT ${reach}`,
        ],
        order: `m.${key} ${dir}, m.recipient, m.campaign_id, m.reason`,
        items: reach,
        offset: '0',
      })})`;
  }
  const order = `${q.sort === 'pending' ? '(p.amount - p.claimed)' : `p.${q.sort}`} ${dir}, p.recipient, p.campaign_id, p.reason`;
  const { rows } = await pg.query<BreakdownRow>(
    `WITH ${ctes}
     SELECT p.recipient, p.campaign_id, p.reason, p.amount::text AS amount, p.claimed::text AS claimed,
       c.opportunity_id, o.identifier AS opportunity_name
     FROM cand p
     LEFT JOIN campaigns c ON c.distribution_chain_id = ${p.chain} AND lower(c.campaign_id) = p.campaign_id
     LEFT JOIN opportunities o ON o.id = c.opportunity_id
     ORDER BY ${order} LIMIT ${items} OFFSET ${offset}`,
    args.values,
  );
  return rows;
}

async function breakdownsTotals(pg: Queryable, bound: Bound): Promise<BreakdownsTotals> {
  const { p, where, campaigns } = bound;
  // One recipient's breakdowns are counted; else the tree's rows of the token (campaign_id '') or of each
  // stored id of the campaign in reward_breakdown_totals (the latest at or before its seq).
  const counted = p.recipient
    ? `SELECT count(*) AS n, coalesce(sum(b.amount), 0) AS amount FROM reward_breakdown_versions b WHERE ${where}`
    : `SELECT coalesce(sum(t.breakdowns), 0) AS n, coalesce(sum(t.amount), 0) AS amount
       FROM unnest(${campaigns ? `${campaigns}::text[]` : "ARRAY['']"}) i(campaign_id)
       CROSS JOIN LATERAL (SELECT breakdowns, amount FROM reward_breakdown_totals WHERE chain_id = ${p.chain}
         AND token = ${p.token} AND campaign_id = i.campaign_id AND seq <= ${p.seq} ORDER BY seq DESC LIMIT 1) t`;
  const { rows } = await pg.query<BreakdownsTotals>(
    `SELECT n.n::int AS total_count, n.amount::text AS total_amount, c.claimed::text AS total_claimed
     FROM (${counted}) n, (SELECT coalesce(sum(claimed), 0) AS claimed FROM (${claimedPartsSql(bound)}) x) c`,
    bound.args.values,
  );
  return rows[0]!;
}
