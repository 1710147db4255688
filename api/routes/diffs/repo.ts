import type { PgPool } from '../../../internal/pg.js';
import { queryPageWithTotals } from '../../sql/pageWithTotals.js';
import type { TokenDbRow } from '../tokens/repo.js';
import type { BreakdownsQuery, LeavesQuery } from './schema.js';

/**
 * Claimed per (recipient, token) on a chain, capped at the leaf amount. Breakdowns get a pro-rata
 * share of it (largest remainder left to the first rows, as GET /users/{address}/rewards does).
 */
const LEAVES_SQL = `
  WITH raw AS (
    SELECT w.recipient, w.token, w.amount, COALESCE((SELECT sum(c.amount) FROM claims c WHERE c.chain_id = w.chain_id AND c.recipient = w.recipient AND c.token = w.token), 0) AS paid
    FROM rewards w WHERE w.chain_id = $1 AND w.root = $2 AND w.token = $3 AND ($4::text IS NULL OR w.recipient = $4)),
  leaves AS (SELECT recipient, token, amount, LEAST(amount, paid) AS claimed, GREATEST(paid - amount, 0) AS overpaid FROM raw)`;

/** Sort on the numeric columns of `table` (the selected ones are text), the recipient breaking ties. */
const orderBy = (q: Pick<LeavesQuery, 'sort' | 'order'>, table: string) =>
  `${q.sort === 'pending' ? `(${table}.amount - ${table}.claimed)` : `${table}.${q.sort}`} ${q.order === 'asc' ? 'ASC' : 'DESC'}, ${table}.recipient`;

/** One page of the leaves of a token in `root` (recipient filter, sort, paging) and the count and sums over every leaf. */
export async function leavesPage(pg: PgPool, q: LeavesQuery, root: string) {
  const args = [q.chainId, root, q.tokenAddress.toLowerCase(), q.recipient?.toLowerCase() ?? null];
  return queryPageWithTotals<
    { recipient: string; token: string; amount: string; claimed: string },
    {
      total_count: number;
      total_amount: string;
      total_claimed: string;
      total_positive: string;
      total_negative: string;
    }
  >(
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

/**
 * One page of the per-campaign breakdowns of a token's leaves in `root`, each with its pro-rata share
 * of what was claimed and its opportunity, and the count and sums over every matching breakdown.
 */
export async function breakdownsPage(pg: PgPool, q: BreakdownsQuery, root: string) {
  const args = [
    q.chainId,
    root,
    q.tokenAddress.toLowerCase(),
    q.recipient?.toLowerCase() ?? null,
    q.campaignId?.toLowerCase() ?? null,
  ];
  const partsSql = `${LEAVES_SQL},
       parts AS (
         SELECT b.recipient, lower(b.campaign_id) AS campaign_id, b.reason, b.amount,
           CASE WHEN l.amount = 0 THEN 0 ELSE floor(b.amount * l.claimed / l.amount) END AS claimed
         FROM reward_breakdowns b JOIN leaves l ON l.recipient = b.recipient
         WHERE b.chain_id = $1 AND b.root = $2 AND b.token = $3 AND ($5::text IS NULL OR lower(b.campaign_id) = $5))`;
  // The page, and the count and summary of every matching breakdown (not of the page).
  return queryPageWithTotals<
    {
      recipient: string;
      campaign_id: string;
      reason: string;
      amount: string;
      claimed: string;
      opportunity_id: string | null;
      opportunity_name: string | null;
    },
    { total_count: number; total_amount: string; total_claimed: string }
  >(
    pg,
    {
      ctes: partsSql,
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

/** The tokens of a chain with leaves in `root`, by symbol. */
export async function leafTokens(pg: PgPool, chainId: number, root: string): Promise<TokenDbRow[]> {
  const { rows } = await pg.query<TokenDbRow>(
    `SELECT t.id, t.chain_id, t.address, t.name, t.symbol, t.decimals, t.icon, t.verified, t.is_native, t.is_test, t.type, t.display_symbol, t.underlying_token_id
       FROM tokens t WHERE t.chain_id = $1 AND t.address IN (SELECT DISTINCT token FROM rewards WHERE chain_id = $1 AND root = $2) ORDER BY lower(t.symbol), t.address`,
    [chainId, root],
  );
  return rows;
}
