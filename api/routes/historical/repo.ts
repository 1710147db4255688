import type { Queryable } from '../../../internal/pg.js';
import { queryPageWithTotals } from '../../sql/pageWithTotals.js';

/** The on-chain id (lower case) of the campaign with database id `id`; undefined when there is none. */
export async function onchainCampaignIdOf(pg: Queryable, id: string): Promise<string | undefined> {
  return (
    await pg.query<{ campaign_id: string }>('SELECT lower(campaign_id) AS campaign_id FROM campaigns WHERE id = $1', [
      id,
    ])
  ).rows[0]?.campaign_id;
}

export type BreakdownDiffPage = {
  chainId: number;
  /** The start root, null when no root precedes the start (every start amount is then 0). */
  startRoot: string | null;
  endRoot: string;
  /** Breakdowns of one campaign (its lower-case on-chain id) or of one recipient (lower case). */
  by: 'campaign' | 'recipient';
  key: string;
  page: number;
  items: number;
};

/**
 * Per (campaign, recipient, reason, token) breakdown of one campaign or recipient, the amounts in both
 * roots, largest increase first: one page, and the count of every breakdown (a page past the end
 * still says how many there are).
 */
export async function breakdownDiffPage(
  pg: Queryable,
  { chainId, startRoot, endRoot, by, key, page, items }: BreakdownDiffPage,
) {
  const column = by === 'campaign' ? 'lower(campaign_id)' : 'recipient';
  return queryPageWithTotals<
    {
      campaign_id: string;
      recipient: string;
      reason: string;
      token: string;
      start_amount: string;
      end_amount: string;
    },
    { total_count: number }
  >(
    pg,
    {
      ctes: `WITH s AS (SELECT lower(campaign_id) AS campaign_id, recipient, reason, token, amount FROM reward_breakdowns WHERE chain_id = $1 AND root = $2 AND ${column} = $4),
        e AS (SELECT lower(campaign_id) AS campaign_id, recipient, reason, token, amount FROM reward_breakdowns WHERE chain_id = $1 AND root = $3 AND ${column} = $4),
        d AS (SELECT COALESCE(e.campaign_id, s.campaign_id) AS campaign_id, COALESCE(e.recipient, s.recipient) AS recipient, COALESCE(e.reason, s.reason) AS reason,
          COALESCE(e.token, s.token) AS token, COALESCE(s.amount, 0) AS start_amount, COALESCE(e.amount, 0) AS end_amount
          FROM e FULL OUTER JOIN s USING (campaign_id, recipient, reason, token))`,
      page: `SELECT campaign_id, recipient, reason, token, start_amount::text, end_amount::text,
          row_number() OVER (ORDER BY d.end_amount - d.start_amount DESC, d.campaign_id, d.recipient, d.reason, d.token) AS page_row
        FROM d ORDER BY page_row LIMIT $5 OFFSET $6`,
      totals: 'SELECT count(*)::int AS total_count FROM d',
    },
    [chainId, startRoot ?? '', endRoot, key, items, page * items],
  );
}
