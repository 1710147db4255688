import type { PgClient, PgPool } from '../../internal/pg.js';
import { loadLiveRoot } from './roots.js';

type Db = PgPool | PgClient;

/** What one campaign distributed in one token (and month, with a grain) over a window. */
export type DistributedRow = {
  chainId: number;
  campaignId: string;
  token: string;
  /** `YYYY-MM` (UTC) of the roots, with `grain: 'month'`; else null. */
  period: string | null;
  /** Token units (decimal string). */
  amount: string;
  /** USD at each root's time; the amounts of roots whose token had no price then count 0. */
  usd: number;
  /** Whether some of `amount` had no price at its root's time. */
  unpriced: boolean;
};

export type DistributedParams = {
  chainIds: readonly number[];
  /** Unix seconds, inclusive; null: since the first root. */
  from: number | null;
  /** Unix seconds, inclusive; null: up to the live root. */
  to: number | null;
  grain: 'month' | null;
};

/** Each chain's live root position (loadLiveRoot), as the arrays the SQL unnests; chains without one left out. */
async function liveRoots(db: Db, chainIds: readonly number[]) {
  const lives = await Promise.all(chainIds.map(async (id) => ({ id, live: await loadLiveRoot(db, id) })));
  const known = lives.filter((l) => l.live !== null);
  return {
    chainIds: known.map((l) => l.id),
    blocks: known.map((l) => String(l.live!.blockNumber)),
    logIndexes: known.map((l) => l.live!.logIndex),
  };
}

/**
 * SQL (parameters $1–$6: chain ids, live roots' blocks and log indexes, from, to, grain) of `priced`:
 * per counted root (not revoked, tree verified, up to its chain's live root, in the window), campaign
 * and token, what the root changed of the campaign's total since the counted root before it: the sum
 * of the per-tree deltas of seq in (previous root's tree, root's tree]
 * (reward_campaign_deltas, sql/migrations/2026_12_02_01_reward_campaign_deltas.sql, index-only by its
 * primary key), with the token's daily close of the root's UTC day (the
 * latest known on or before it; token_price_history) and the month. Tables roots, reward_trees,
 * reward_campaign_deltas, tokens, token_price_history.
 */
const PRICED = `
  live AS (SELECT * FROM unnest($1::int[], $2::bigint[], $3::int[]) AS l(chain_id, block_number, log_index)),
  counted AS (
    SELECT r.chain_id, r.timestamp, t.seq,
      lag(t.seq) OVER (PARTITION BY r.chain_id ORDER BY r.block_number, r.log_index) AS prev_seq
    FROM live l JOIN roots r ON r.chain_id = l.chain_id
    JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified' AND t.seq IS NOT NULL
    WHERE NOT r.revoked AND (r.block_number, r.log_index) <= (l.block_number, l.log_index)
  ), windowed AS (
    SELECT * FROM counted WHERE ($4::bigint IS NULL OR timestamp >= $4) AND ($5::bigint IS NULL OR timestamp <= $5)
  ), changes AS (
    SELECT w.chain_id, w.seq, w.timestamp, c.campaign_id, c.token, sum(c.delta) AS delta
    FROM windowed w JOIN reward_campaign_deltas c
      ON c.chain_id = w.chain_id AND c.seq > coalesce(w.prev_seq, 0) AND c.seq <= w.seq
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(c.delta) <> 0
  ), prices AS (
    SELECT k.chain_id, k.timestamp, k.token, tk.decimals, (SELECT ph.close FROM token_price_history ph
      WHERE ph.token_id = tk.id AND ph.day <= (to_timestamp(k.timestamp) AT TIME ZONE 'UTC')::date
      ORDER BY ph.day DESC LIMIT 1) AS price
    FROM (SELECT DISTINCT chain_id, timestamp, token FROM changes) k
    LEFT JOIN tokens tk ON tk.chain_id = k.chain_id AND lower(tk.address) = k.token
  ), priced AS (
    SELECT x.chain_id, x.campaign_id, x.token, x.delta, p.price, p.decimals,
      CASE WHEN $6::text = 'month' THEN to_char(to_timestamp(x.timestamp) AT TIME ZONE 'UTC', 'YYYY-MM') END AS period
    FROM changes x LEFT JOIN prices p USING (chain_id, timestamp, token)
  ), per_campaign AS MATERIALIZED (
    SELECT chain_id, campaign_id, token, period, sum(delta) AS delta,
      coalesce(sum(delta::float8 / 10 ^ coalesce(decimals, 18) * price), 0)::float8 AS usd,
      bool_or(price IS NULL) AS unpriced
    FROM priced GROUP BY 1, 2, 3, 4
  )`;

/** The sums of a group of `per_campaign` rows (USD: amounts of unpriced roots count 0). */
const SUMS = 'sum(delta)::text AS amount, sum(usd)::float8 AS usd, bool_or(unpriced) AS unpriced';

/**
 * What the live roots of each chain distributed per campaign and token (and month) over a window
 * (PRICED), summed in PostgreSQL: the rows the campaign filters that only Elasticsearch knows need.
 */
export async function loadDistributedRewards(db: Db, p: DistributedParams): Promise<DistributedRow[]> {
  const live = await liveRoots(db, p.chainIds);
  if (!live.chainIds.length) return [];
  const { rows } = await db.query<{
    chain_id: number;
    campaign_id: string;
    token: string;
    period: string | null;
    amount: string;
    usd: number;
    unpriced: boolean;
  }>(
    `WITH ${PRICED} SELECT chain_id, campaign_id, token, period, delta::text AS amount, usd, unpriced FROM per_campaign`,
    [live.chainIds, live.blocks, live.logIndexes, p.from, p.to, p.grain],
  );
  return rows.map((r) => ({
    chainId: r.chain_id,
    campaignId: r.campaign_id,
    token: r.token,
    period: r.period,
    amount: r.amount,
    usd: r.usd,
    unpriced: r.unpriced,
  }));
}

/** The campaign filters PostgreSQL applies itself (the rest need Elasticsearch: loadDistributedRewards). */
export type DistributedCampaignFilter = {
  /** Compute chain (`chainId`). */
  computeChainId?: number;
  /** Campaign statuses at `now` (SOON, LIVE, PAST), any of them. */
  statuses?: readonly ('SOON' | 'LIVE' | 'PAST')[];
  now: number;
  /** `test=true`: campaigns of test reward tokens count too. */
  test: boolean;
  excludeSubCampaigns: boolean;
  /** Private campaigns the caller may see: none, all, or these internal ids. */
  visible: 'none' | 'all' | readonly string[];
};

/** One group of what the counted campaigns distributed: by chain, token, month and campaign type. */
export type DistributedGroup = {
  chainId: number;
  token: string;
  period: string | null;
  campaignType: number;
  amount: string;
  usd: number;
  unpriced: boolean;
};

/** What one opportunity's counted campaigns distributed, and how many of them did. */
export type DistributedOpportunityGroup = {
  campaignType: number;
  /** The campaigns' opportunity; null when their rows have none (derive it: computeChainId, mainParameter). */
  opportunityId: string | null;
  computeChainId: number;
  mainParameter: string | null;
  usd: number;
  campaigns: number;
};

/**
 * PRICED joined to the indexed campaigns (campaigns_current, as their Elasticsearch documents are
 * built: same chain and campaign id, any case) that the filter keeps, under the listing's default
 * exclusions (private unless visible: campaign_privacy; test reward tokens unless `test`).
 */
function counted(f: DistributedCampaignFilter, values: unknown[]): string {
  const arg = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const where = [
    f.test ? null : 'rt.chain_id IS NULL',
    f.excludeSubCampaigns ? 'cc.parent_campaign_id IS NULL' : null,
    f.computeChainId !== undefined ? `cc.compute_chain_id = ${arg(f.computeChainId)}` : null,
    f.visible === 'all'
      ? null
      : `NOT (coalesce(pv.is_private, false) AND cc.id <> ALL(${arg(f.visible === 'none' ? [] : [...f.visible])}::text[]))`,
  ];
  if (f.statuses) {
    const now = arg(f.now);
    const clause = {
      SOON: `cc.start_timestamp > ${now}`,
      PAST: `cc.end_timestamp <= ${now}`,
      LIVE: `(cc.start_timestamp <= ${now} AND cc.end_timestamp > ${now})`,
    };
    where.push(`(${f.statuses.map((s) => clause[s]).join(' OR ')})`);
  }
  // campaigns_current's columns, spelled out so the overrides (rare) join by hash, not one lookup per
  // campaign; the test tokens (few) likewise.
  return `, test_tokens AS MATERIALIZED (SELECT DISTINCT chain_id, lower(address) AS address FROM tokens WHERE is_test
  ), overrides AS (
    SELECT DISTINCT ON (campaign_db_id) * FROM campaign_overrides ORDER BY campaign_db_id, block_number DESC, log_index DESC
  ), campaign_rows AS (
    SELECT c.id, c.distribution_chain_id, c.campaign_id, c.reward_token, c.parent_campaign_id,
      coalesce(o.compute_chain_id, c.compute_chain_id) AS compute_chain_id,
      coalesce(o.campaign_type, c.campaign_type) AS campaign_type,
      coalesce(o.start_timestamp, c.start_timestamp) AS start_timestamp,
      coalesce(o.end_timestamp, c.end_timestamp) AS end_timestamp,
      coalesce(o.main_parameter, c.main_parameter) AS main_parameter,
      coalesce(o.opportunity_id, c.opportunity_id) AS opportunity_id
    FROM campaigns c LEFT JOIN overrides o ON o.campaign_db_id = c.id
  ), kept AS (
    SELECT x.*, cc.id AS campaign_db_id, cc.campaign_type, cc.opportunity_id, cc.compute_chain_id,
      CASE WHEN cc.opportunity_id IS NULL THEN cc.main_parameter END AS main_parameter
    FROM per_campaign x
    JOIN campaign_rows cc ON cc.distribution_chain_id = x.chain_id AND lower(cc.campaign_id) = lower(x.campaign_id)
    LEFT JOIN test_tokens rt ON rt.chain_id = cc.distribution_chain_id AND rt.address = lower(cc.reward_token)
    LEFT JOIN campaign_privacy pv ON pv.campaign_db_id = cc.id
    WHERE ${where.filter(Boolean).join(' AND ') || 'true'}
  )`;
}

/**
 * What the live roots distributed (PRICED) per chain, token, month and campaign type,
 * for the campaigns the filter keeps: one GROUP BY in PostgreSQL, a few rows to the process.
 */
export async function loadDistributedGroups(
  db: Db,
  p: DistributedParams,
  f: DistributedCampaignFilter,
): Promise<DistributedGroup[]> {
  const live = await liveRoots(db, p.chainIds);
  if (!live.chainIds.length) return [];
  const values: unknown[] = [live.chainIds, live.blocks, live.logIndexes, p.from, p.to, p.grain];
  const { rows } = await db.query<{
    chain_id: number;
    token: string;
    period: string | null;
    campaign_type: number;
    amount: string;
    usd: number;
    unpriced: boolean;
  }>(
    `WITH ${PRICED}${counted(f, values)}
     SELECT chain_id, token, period, campaign_type, ${SUMS} FROM kept GROUP BY 1, 2, 3, 4`,
    values,
  );
  return rows.map((r) => ({
    chainId: r.chain_id,
    token: r.token,
    period: r.period,
    campaignType: r.campaign_type,
    amount: r.amount,
    usd: r.usd,
    unpriced: r.unpriced,
  }));
}

/** Per opportunity (and type), USD and the number of campaigns that distributed. */
export async function loadDistributedOpportunityGroups(
  db: Db,
  p: DistributedParams,
  f: DistributedCampaignFilter,
): Promise<DistributedOpportunityGroup[]> {
  const live = await liveRoots(db, p.chainIds);
  if (!live.chainIds.length) return [];
  const values: unknown[] = [live.chainIds, live.blocks, live.logIndexes, p.from, p.to, p.grain];
  const { rows } = await db.query<{
    campaign_type: number;
    opportunity_id: string | null;
    compute_chain_id: number;
    main_parameter: string | null;
    usd: number;
    campaigns: number;
  }>(
    `WITH ${PRICED}${counted(f, values)}
     SELECT campaign_type, opportunity_id, compute_chain_id, main_parameter, sum(usd)::float8 AS usd,
       count(DISTINCT campaign_db_id)::int AS campaigns
     FROM kept GROUP BY 1, 2, 3, 4`,
    values,
  );
  return rows.map((r) => ({
    campaignType: r.campaign_type,
    opportunityId: r.opportunity_id,
    computeChainId: r.compute_chain_id,
    mainParameter: r.main_parameter,
    usd: r.usd,
    campaigns: r.campaigns,
  }));
}
