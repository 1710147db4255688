import type { breakdownsPage } from '../../api/routes/diffs/breakdownsPage.js';
import type { leavesPage } from '../../api/routes/diffs/leavesPage.js';
import type { BreakdownsQuery, LeavesQuery } from '../../api/routes/diffs/schema.js';
import type { breakdownDiffPage } from '../../api/routes/historical/repo.js';
import { queryPageWithTotals } from '../../api/sql/pageWithTotals.js';
import type { Queryable } from '../../internal/pg.js';

/**
 * The back-office reads as they were computed before issue #30 made them bounded: every leaf of the root
 * through the `rewards` views, its claims summed from `claims`, the whole set numbered and sorted. Slow at
 * scale, plainly right: the answers the bounded reads must give, row for row.
 */

const LEAVES_SQL = `
  WITH raw AS (
    SELECT w.recipient, w.token, w.amount, COALESCE((SELECT sum(c.amount) FROM claims c WHERE c.chain_id = w.chain_id AND c.recipient = w.recipient AND c.token = w.token), 0) AS paid
    FROM rewards w WHERE w.chain_id = $1 AND w.root = $2 AND w.token = $3 AND ($4::text IS NULL OR w.recipient = $4)),
  leaves AS (SELECT recipient, token, amount, LEAST(amount, paid) AS claimed, GREATEST(paid - amount, 0) AS overpaid FROM raw)`;

const orderBy = (q: Pick<LeavesQuery, 'sort' | 'order'>, table: string) =>
  `${q.sort === 'pending' ? `(${table}.amount - ${table}.claimed)` : `${table}.${q.sort}`} ${q.order === 'asc' ? 'ASC' : 'DESC'}, ${table}.recipient`;

type LeavesAnswer = Awaited<ReturnType<typeof leavesPage>>;
type BreakdownsAnswer = Awaited<ReturnType<typeof breakdownsPage>>;
type DiffAnswer = Awaited<ReturnType<typeof breakdownDiffPage>>;

/** GET /v4/diffs/leaves of `root`, as before. */
export function oracleLeaves(pg: Queryable, q: LeavesQuery, root: string): Promise<LeavesAnswer> {
  const args = [q.chainId, root, q.tokenAddress.toLowerCase(), q.recipient?.toLowerCase() ?? null];
  return queryPageWithTotals(
    pg,
    {
      ctes: LEAVES_SQL,
      page: `SELECT recipient, token, amount::text, claimed::text, row_number() OVER (ORDER BY ${orderBy(q, 'leaves')}) AS page_row FROM leaves ORDER BY page_row LIMIT $5 OFFSET $6`,
      totals: `SELECT count(*)::int AS total_count, COALESCE(sum(amount), 0)::text AS total_amount, COALESCE(sum(claimed), 0)::text AS total_claimed,
        COALESCE(sum(amount - claimed), 0)::text AS total_positive, (-COALESCE(sum(overpaid), 0))::text AS total_negative FROM leaves`,
    },
    [...args, q.items, q.page * q.items],
  );
}

/** GET /v4/diffs/leaf-breakdowns of `root`, as before. */
export function oracleBreakdowns(pg: Queryable, q: BreakdownsQuery, root: string): Promise<BreakdownsAnswer> {
  const args = [
    q.chainId,
    root,
    q.tokenAddress.toLowerCase(),
    q.recipient?.toLowerCase() ?? null,
    q.campaignId?.toLowerCase() ?? null,
  ];
  return queryPageWithTotals(
    pg,
    {
      ctes: `${LEAVES_SQL},
       parts AS (
         SELECT b.recipient, lower(b.campaign_id) AS campaign_id, b.reason, b.amount,
           CASE WHEN l.amount = 0 THEN 0 ELSE floor(b.amount * l.claimed / l.amount) END AS claimed
         FROM reward_breakdowns b JOIN leaves l ON l.recipient = b.recipient
         WHERE b.chain_id = $1 AND b.root = $2 AND b.token = $3 AND ($5::text IS NULL OR lower(b.campaign_id) = $5))`,
      page: `SELECT p.recipient, p.campaign_id, p.reason, p.amount::text, p.claimed::text, c.opportunity_id, o.identifier AS opportunity_name,
          row_number() OVER (ORDER BY ${orderBy(q, 'p')}, p.campaign_id, p.reason) AS page_row
        FROM parts p LEFT JOIN campaigns c ON c.distribution_chain_id = $1 AND lower(c.campaign_id) = p.campaign_id LEFT JOIN opportunities o ON o.id = c.opportunity_id
        ORDER BY page_row LIMIT $6 OFFSET $7`,
      totals:
        'SELECT count(*)::int AS total_count, COALESCE(sum(amount), 0)::text AS total_amount, COALESCE(sum(claimed), 0)::text AS total_claimed FROM parts',
    },
    [...args, q.items, q.page * q.items],
  );
}

/**
 * GET /v4/historical/{campaign|recipient} between two roots (`key` lower case), summed per breakdown key over
 * both roots' rows of the `reward_breakdowns` view matched by lower(campaign_id) or recipient.
 */
export async function oracleDiff(
  pg: Queryable,
  p: { chainId: number; startRoot: string | null; endRoot: string; by: 'campaign' | 'recipient'; key: string },
  page: number,
  items: number,
): Promise<DiffAnswer> {
  const column = p.by === 'campaign' ? 'lower(campaign_id)' : 'recipient';
  const both = `SELECT lower(campaign_id) AS campaign_id, recipient, reason, token,
      sum(CASE WHEN root = $2 THEN amount ELSE 0 END) AS start_amount, sum(CASE WHEN root = $3 THEN amount ELSE 0 END) AS end_amount
    FROM reward_breakdowns WHERE chain_id = $1 AND root IN ($2, $3) AND ${column} = $4 GROUP BY 1, 2, 3, 4`;
  const args = [p.chainId, p.startRoot ?? '', p.endRoot, p.key];
  const { rows } = await pg.query(
    `SELECT campaign_id, recipient, reason, token, start_amount::text, end_amount::text FROM (${both}) x
     ORDER BY end_amount - start_amount DESC, campaign_id, recipient, reason, token LIMIT $5 OFFSET $6`,
    [...args, items, page * items],
  );
  const { rows: count } = await pg.query(`SELECT count(*)::int AS total_count FROM (${both}) x`, args);
  return { rows, totals: count[0] } as DiffAnswer;
}

/**
 * GET /v4/rewards?campaignId as it was computed before: one page by OFFSET over the campaign's breakdowns of
 * `root`, each recipient's claims summed from `claims` per row (for hide and for the claimed column).
 */
export async function oracleCampaignRewards(
  pg: Queryable,
  p: { chainId: number; root: string; campaignId: string; hide: boolean; items: number; offset: number },
) {
  const claimed = (alias: string) =>
    `(SELECT coalesce(sum(k.amount), 0) FROM claims k WHERE k.recipient = ${alias}.recipient AND k.chain_id = $1 AND k.token = ${alias}.token)`;
  const { rows } = await pg.query(
    `WITH page AS (
       SELECT b.recipient, b.campaign_id, b.reason, b.token, b.amount FROM reward_breakdowns b
       WHERE b.chain_id = $1 AND b.root = $2 AND b.campaign_id IN ($3, lower($3)) AND (NOT $4::boolean OR b.amount > ${claimed('b')})
       ORDER BY b.amount DESC, b.recipient, b.token, b.reason LIMIT $5 OFFSET $6)
     SELECT p.recipient, p.campaign_id, p.reason, p.token, p.amount::text AS amount, ${claimed('p')}::text AS claimed
     FROM page p ORDER BY p.amount DESC, p.recipient, p.token, p.reason`,
    [p.chainId, p.root, p.campaignId, p.hide, p.items, p.offset],
  );
  return rows;
}
