import type { PgClient, PgPool } from '../../internal/pg.js';
import { loadLiveRoots } from './roots.js';

/**
 * What the live roots distributed (#33, GET /v4/rewards/total/distributed): the SQL the exact read
 * (api/reads/distributedRewards.ts) and the facet rollup's rebuild (indexer/store/distributedFacetRollup.ts)
 * share, so the rollup sums exactly the rows the exact read sums.
 */

/** Per chain, its live root position (loadLiveRoot), as the arrays the SQL unnests (null: no live root). */
export type LivePositions = { chainIds: number[]; blocks: (string | null)[]; logIndexes: (number | null)[] };

/** The live root position of each of `chainIds` (loadLiveRoots: it moves with the chain's clock alone). */
export async function loadLivePositions(db: PgPool | PgClient, chainIds: readonly number[]): Promise<LivePositions> {
  const lives = await loadLiveRoots(db, chainIds);
  const of = (id: number) => lives.get(id) ?? null;
  return {
    chainIds: [...chainIds],
    blocks: chainIds.map((id) => (of(id) ? String(of(id)!.blockNumber) : null)),
    logIndexes: chainIds.map((id) => of(id)?.logIndex ?? null),
  };
}

/** Pure: the chains of `p` that have a live root (the only ones whose roots count). */
export function withLiveRoot(p: LivePositions): LivePositions {
  const keep = p.chainIds.flatMap((_, i) => (p.blocks[i] === null ? [] : [i]));
  return {
    chainIds: keep.map((i) => p.chainIds[i]!),
    blocks: keep.map((i) => p.blocks[i]!),
    logIndexes: keep.map((i) => p.logIndexes[i]!),
  };
}

/**
 * SQL (parameters $1–$6: chain ids, live roots' blocks and log indexes, from, to, grain) of `priced`:
 * per counted root (not revoked, tree verified, up to its chain's live root, in the window), campaign
 * and token, what the root changed of the campaign's total since the counted root before it: the
 * campaign's total after storing the root's tree minus after storing the previous root's, i.e. the
 * sum of the per-tree deltas of seq in (previous root's tree, root's tree], negated when the previous
 * root's tree was stored later (trees are stored in the order they are fetched, not the roots' order:
 * a tree unavailable at first, or stored again, takes a later seq)
 * (reward_campaign_deltas, sql/migrations/2026_12_02_01_reward_campaign_deltas.sql, index-only by its
 * primary key), with the token's daily close of the root's UTC day (the
 * latest known on or before it; token_price_history), the root's time and the month; `per_campaign`
 * sums them per campaign, token and month. Tables roots, reward_trees, reward_campaign_deltas,
 * tokens, token_price_history.
 */
export const PRICED = `
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
    SELECT w.chain_id, w.seq, w.timestamp, c.campaign_id, c.token,
      sum(CASE WHEN w.seq > coalesce(w.prev_seq, 0) THEN c.delta ELSE -c.delta END) AS delta
    FROM windowed w JOIN reward_campaign_deltas c
      ON c.chain_id = w.chain_id AND c.seq > least(w.seq, coalesce(w.prev_seq, 0))
      AND c.seq <= greatest(w.seq, coalesce(w.prev_seq, 0))
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(CASE WHEN w.seq > coalesce(w.prev_seq, 0) THEN c.delta ELSE -c.delta END) <> 0
  ), prices AS (
    SELECT k.chain_id, k.timestamp, k.token, tk.decimals, (SELECT ph.close FROM token_price_history ph
      WHERE ph.token_id = tk.id AND ph.day <= (to_timestamp(k.timestamp) AT TIME ZONE 'UTC')::date
      ORDER BY ph.day DESC LIMIT 1) AS price
    FROM (SELECT DISTINCT chain_id, timestamp, token FROM changes) k
    LEFT JOIN tokens tk ON tk.chain_id = k.chain_id AND lower(tk.address) = k.token
  ), priced AS (
    SELECT x.chain_id, x.campaign_id, x.token, x.timestamp, x.delta, p.price, p.decimals,
      CASE WHEN $6::text = 'month' THEN to_char(to_timestamp(x.timestamp) AT TIME ZONE 'UTC', 'YYYY-MM') END AS period
    FROM changes x LEFT JOIN prices p USING (chain_id, timestamp, token)
  ), per_campaign AS MATERIALIZED (
    SELECT chain_id, campaign_id, token, period, sum(delta) AS delta,
      coalesce(sum(${usdOf('')}), 0)::float8 AS usd,
      bool_or(price IS NULL) AS unpriced
    FROM priced GROUP BY 1, 2, 3, 4
  )`;

/** SQL: the USD of a `priced` row (its columns under `alias`): units at the root day's close; null unpriced. */
export function usdOf(alias: string): string {
  const c = alias ? `${alias}.` : '';
  return `${c}delta::float8 / 10 ^ coalesce(${c}decimals, 18) * ${c}price`;
}

/**
 * SQL (appended to a WITH list) of `campaign_rows`: the indexed campaigns as their Elasticsearch
 * documents are built (campaigns_current's columns: the latest override wins), and `test_tokens`, the
 * test reward tokens. Spelled out so the overrides (rare) join by hash, not one lookup per campaign;
 * the test tokens (few) likewise. Tables campaigns, campaign_overrides, tokens.
 */
export const CAMPAIGN_ROWS = `, test_tokens AS MATERIALIZED (SELECT DISTINCT chain_id, lower(address) AS address FROM tokens WHERE is_test
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
  )`;

/**
 * SQL (joined after a `priced` or `per_campaign` row `x`) of the campaign a row belongs to (`cc`, as
 * its document is built: same chain and campaign id, any case), whether its reward token is a test
 * token (`rt`) and its privacy (`pv`).
 */
export const CAMPAIGN_JOIN = `JOIN campaign_rows cc ON cc.distribution_chain_id = x.chain_id AND lower(cc.campaign_id) = lower(x.campaign_id)
    LEFT JOIN test_tokens rt ON rt.chain_id = cc.distribution_chain_id AND rt.address = lower(cc.reward_token)
    LEFT JOIN campaign_privacy pv ON pv.campaign_db_id = cc.id`;

/**
 * SQL (a boolean expression) of whether a campaign inserted since the rollups' rebuild (or given its
 * first override or privacy row: distributed_rollup_new_campaigns) is named by a delta, i.e. counts in
 * the figures while the rollups left it out. Asked in the reader's snapshot
 * (sql/migrations/2026_12_06_01_distributed_rollup_new_campaigns.sql says why that is exact).
 */
export const NEW_CAMPAIGN_DISTRIBUTED = `EXISTS (SELECT 1 FROM distributed_rollup_new_campaigns n
    CROSS JOIN LATERAL (${noteDistributedSql('n')}) named)`;

/**
 * SQL (a subquery) of a row when a delta names the campaign of note `alias` (its campaign by key, then its
 * deltas by reward_campaign_deltas_lower_id_idx). Fenced by LIMIT so that PostgreSQL walks from the notes
 * (a few): joined plainly, with the notes' statistics not yet gathered, it scanned the million campaigns
 * and probed the notes (1.66 s instead of 9 ms for 50 notes, docs/benchmarks/report.md).
 */
export function noteDistributedSql(alias: string): string {
  return `SELECT 1 FROM campaigns c JOIN reward_campaign_deltas d
      ON d.chain_id = c.distribution_chain_id AND lower(d.campaign_id) = lower(c.campaign_id)
    WHERE c.id = ${alias}.campaign_db_id LIMIT 1`;
}

/**
 * SQL (a boolean expression; parameters: chain ids, blocks and log indexes at $n, $n+1, $n+2) of
 * whether the facet rollup answers for these live roots: no write it depends on since its rebuild
 * (distributed_rollup_dirty empty, and no campaign inserted since that a delta names:
 * NEW_CAMPAIGN_DISTRIBUTED) and built for exactly these live root positions
 * (distributed_rollup_state; a chain missing there, or at another position, is stale). One
 * expression, so that a read checks and reads the rollup in one statement's snapshot.
 */
export function rollupFreshSql(n: number): string {
  return `(NOT EXISTS (SELECT 1 FROM distributed_rollup_dirty) AND NOT ${NEW_CAMPAIGN_DISTRIBUTED} AND NOT EXISTS (
    SELECT 1 FROM unnest($${n}::int[], $${n + 1}::bigint[], $${n + 2}::int[]) AS q(chain_id, block_number, log_index)
    LEFT JOIN distributed_rollup_state s ON s.chain_id = q.chain_id
    WHERE s.chain_id IS NULL OR s.block_number IS DISTINCT FROM q.block_number OR s.log_index IS DISTINCT FROM q.log_index))`;
}

/** A campaign status filter's values (SOON, LIVE, PAST), as GET /v4/campaigns takes them. */
export type CampaignStatus = 'SOON' | 'LIVE' | 'PAST';

/**
 * SQL (a boolean expression) of whether a campaign with columns `start_timestamp` and `end_timestamp`
 * (under `alias`) has one of `statuses` at `now` (an SQL value, e.g. `$7`): SOON before its start,
 * PAST from its end, LIVE in between. The exact read and the rollups' reads share it.
 */
export function statusSql(statuses: readonly CampaignStatus[], now: string, alias = ''): string {
  const a = alias ? `${alias}.` : '';
  const clause = {
    SOON: `${a}start_timestamp > ${now}`,
    PAST: `${a}end_timestamp <= ${now}`,
    LIVE: `(${a}start_timestamp <= ${now} AND ${a}end_timestamp > ${now})`,
  };
  return `(${statuses.map((s) => clause[s]).join(' OR ')})`;
}

/**
 * How long the status rollups answer after a rebuild at `now` (Unix seconds): from a few minutes before
 * (clocks of the API and the job differ a little) to a day after. The job rebuilds once half of it has
 * passed (rollupClockDue), so reads stay on the rollup.
 */
export function rollupClock(now: number): { validFrom: number; validUntil: number } {
  return { validFrom: now - 300, validUntil: now + 86_400 };
}

/** Pure: whether a rollup built for `clock` should be rebuilt at `now` (half its horizon gone, or `now` outside it). */
export function rollupClockDue(clock: { validFrom: number; validUntil: number } | null, now: number): boolean {
  return !clock || now < clock.validFrom || now > clock.validUntil - 43_200;
}

/**
 * SQL: a campaign bound `column` clamped to [$from, $until + 1] (SQL values). For any `now` in
 * [from, until] the clamped bound compares with `now` (>, <=) exactly as the bound does, so statusSql
 * over clamped bounds answers as over the real ones, while the campaigns whose bounds lie outside the
 * horizon share a few values (they group together in the rollups).
 */
export function clampedSql(column: string, from: string, until: string): string {
  return `greatest(${from}::bigint, least(${until}::bigint + 1, ${column}))`;
}

/** SQL (a boolean expression) of whether the status rollups' horizon (distributed_rollup_clock) holds `now` (an SQL value). */
export function rollupClockSql(now: string): string {
  return `EXISTS (SELECT 1 FROM distributed_rollup_clock WHERE valid_from <= ${now} AND ${now} <= valid_until)`;
}
