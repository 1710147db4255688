import type { Queryable } from '../../../internal/pg.js';
import { storedCampaignIds } from '../../reads/storedCampaignIds.js';
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

/** SQL: breakdown version `b` is valid in the tree `seq` (a parameter). */
const validAt = (seq: string) => `b.since_seq <= ${seq} AND (b.until_seq IS NULL OR b.until_seq > ${seq})`;
const KEY = 'lower(b.campaign_id) AS campaign_id, b.recipient, b.reason, b.token';

/**
 * Per (campaign, recipient, reason, token) breakdown of one campaign or recipient, the amounts in both
 * roots, largest increase first: one page, and the count of every breakdown (a page past the end
 * still says how many there are). Bounded at a million leaves (issue #30: it compared
 * lower(campaign_id) on every breakdown of the chain, then joined and sorted the campaign's whole
 * breakdowns of both roots, 1.2–2.8 s): the campaign's breakdowns are read by index under each id it is
 * stored as (storedCampaignIds), the recipient's by the primary key (chain, recipient, …), and of
 * those only the versions opened or closed between the two trees can differ (a version valid in both
 * is the same row): they are joined and sorted; the others (a difference of 0) are counted and only
 * as many as the page needs are taken in order (top-N), each in the index alone.
 * Tables reward_trees, reward_breakdown_versions, reward_campaign_totals (the campaign's stored ids).
 */
export async function breakdownDiffPage(
  pg: Queryable,
  { chainId, startRoot, endRoot, by, key, page, items }: BreakdownDiffPage,
) {
  const keyArg = by === 'campaign' ? await storedCampaignIds(pg, chainId, key) : key;
  // A root without a stored tree (none before the start) holds nothing: seq 0 precedes every version.
  const { rows: seqs } = await pg.query<{ start_seq: string; end_seq: string }>(
    `SELECT coalesce((SELECT seq FROM reward_trees WHERE chain_id = $1 AND root = $2), 0)::text AS start_seq,
       coalesce((SELECT seq FROM reward_trees WHERE chain_id = $1 AND root = $3), 0)::text AS end_seq`,
    [chainId, startRoot ?? '', endRoot],
  );
  const filter = `b.chain_id = $1 AND ${by === 'campaign' ? 'b.campaign_id = ANY($4::text[])' : 'b.recipient = $4'}`;
  const [lo, hi] = ['least($2::bigint, $3::bigint)', 'greatest($2::bigint, $3::bigint)'];
  const same = `FROM reward_breakdown_versions b WHERE ${filter} AND b.since_seq <= ${lo} AND (b.until_seq IS NULL OR b.until_seq > ${hi})`;
  const diffOrder = 'end_amount - start_amount DESC, campaign_id, recipient, reason, token';
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
      ctes: `WITH touched AS MATERIALIZED (SELECT ${KEY}, b.amount, b.since_seq, b.until_seq FROM reward_breakdown_versions b
          WHERE ${filter} AND ((b.since_seq > ${lo} AND b.since_seq <= ${hi}) OR (b.until_seq > ${lo} AND b.until_seq <= ${hi}))),
        s AS (SELECT campaign_id, recipient, reason, token, amount FROM touched b WHERE ${validAt('$2')}),
        e AS (SELECT campaign_id, recipient, reason, token, amount FROM touched b WHERE ${validAt('$3')}),
        changed AS (SELECT COALESCE(e.campaign_id, s.campaign_id) AS campaign_id, COALESCE(e.recipient, s.recipient) AS recipient,
          COALESCE(e.reason, s.reason) AS reason, COALESCE(e.token, s.token) AS token, COALESCE(s.amount, 0) AS start_amount,
          COALESCE(e.amount, 0) AS end_amount
          FROM e FULL OUTER JOIN s USING (campaign_id, recipient, reason, token))`,
      page: `SELECT campaign_id, recipient, reason, token, start_amount::text, end_amount::text,
          row_number() OVER (ORDER BY ${diffOrder}) AS page_row
        FROM ((SELECT * FROM changed ORDER BY ${diffOrder} LIMIT $7)
          UNION ALL (SELECT ${KEY}, b.amount AS start_amount, b.amount AS end_amount ${same}
            ORDER BY lower(b.campaign_id), b.recipient, b.reason, b.token LIMIT $7)) d
        ORDER BY page_row LIMIT $5 OFFSET $6`,
      totals: `SELECT ((SELECT count(*) FROM changed) + (SELECT count(*) ${same}))::int AS total_count`,
    },
    [chainId, seqs[0]!.start_seq, seqs[0]!.end_seq, keyArg, items, page * items, page * items + items],
  );
}
