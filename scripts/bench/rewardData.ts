/**
 * Reward data of the search benchmark (#33: reward totals, unclaimed, distributed, user summary),
 * generated in SQL in the bench's own database after the campaigns are loaded: per chain a root
 * every 14 days over ~600 days (the last one still in its dispute period, so the live root is the
 * one before), verified trees with versioned breakdowns and leaves as indexer/store/rewardTrees.ts
 * stores them, the per-tree totals from the migration's own backfill statements, claims of about
 * half the leaves, the unclaimed amounts per campaign of the latest trees (their migration's
 * backfill), daily and current prices of the reward tokens and creation fees.
 * Every campaign that started before the last root is in the trees: most with 1–11 recipients
 * (heavy-tailed), one in a thousand with 500 and one in 100,000 with 72,000 (the size of the
 * campaign that made /rewards/unclaim slow). A campaign appears in the first root after its start
 * and grows once more at the root after its end (or the last one); recipients are drawn from a
 * shared pool so leaves hold several campaigns. Deterministic: every choice is an md5 of the
 * campaign number.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PgPool } from '../../internal/pg.js';
import { BENCH_CHAINS } from './searchData.js';

const TREES = 44;
const STEP = 14 * 86_400;
const TOTALS_MIGRATION = fileURLToPath(
  new URL('../../sql/migrations/2026_11_30_07_reward_totals.sql', import.meta.url),
);
const DELTAS_MIGRATION = fileURLToPath(
  new URL('../../sql/migrations/2026_12_02_01_reward_campaign_deltas.sql', import.meta.url),
);
const UNCLAIMED_MIGRATION = fileURLToPath(
  new URL('../../sql/migrations/2026_12_03_02_reward_campaign_unclaimed.sql', import.meta.url),
);

/** A uniform [0, 1) draw from `expr` (an SQL text expression), by md5. */
const u = (expr: string) => `(('x' || substr(md5(${expr}), 1, 8))::bit(32)::bigint / 4294967296.0)`;

export type RewardDataResult = {
  seconds: number;
  trees: number;
  breakdownVersions: number;
  leafVersions: number;
  claims: number;
  /** Campaigns (chain, on-chain id) with 72,000 recipients, the largest. */
  bigCampaigns: { chainId: number; campaignId: string }[];
  /** A recipient with leaves on several chains (user summary). */
  sampleRecipient: string;
};

/** Fills the reward tables of the bench database; `now` in Unix seconds (the data set's). */
export async function loadRewardData(pg: PgPool, now: number, campaigns: number): Promise<RewardDataResult> {
  const t0 = performance.now();
  const pool = Math.max(100_000, Math.floor(campaigns / 4));
  const first = now - 3600 - (TREES - 1) * STEP;
  const chains = BENCH_CHAINS.map((c, i) => ({ id: c.id, base: (i + 1) * 1000 }));
  await pg.query(
    `INSERT INTO reward_trees (chain_id, root, status, leaves, seq, checked_at)
     SELECT c.id, '0x' || md5(c.id || ':' || j) || md5(j || ':' || c.id), 'verified', 0, c.base + j, now()
     FROM unnest($1::int[], $2::int[]) c(id, base), generate_series(0, $3::int - 1) j`,
    [chains.map((c) => c.id), chains.map((c) => c.base), TREES],
  );
  await pg.query(
    `INSERT INTO roots (chain_id, root, ipfs_hash, end_of_dispute_period, block_number, block_hash, tx_hash, log_index, timestamp)
     SELECT t.chain_id, t.root, 'bafy' || md5(t.root), $1::bigint + (t.seq % 1000) * $2 + 7200, 1 + t.seq % 1000, '0x', '0x' || md5(t.root), 0,
       $1::bigint + (t.seq % 1000) * $2
     FROM reward_trees t`,
    [first, STEP],
  );
  // One row per campaign in the trees: its first and last tree index, recipient count and pool offset.
  await pg.query(
    `CREATE TEMP TABLE bench_rc AS
     SELECT c.distribution_chain_id AS chain_id, lower(c.campaign_id) AS campaign_id, lower(c.reward_token) AS token, c.amount,
       ch.base, greatest(0, ceil((c.start_timestamp - $1) / $2::numeric))::int AS j1,
       least($3 - 1, greatest(0, ceil((least(c.end_timestamp, $4) - $1) / $2::numeric)))::int AS j2,
       CASE WHEN c.block_number % 100000 = 7 THEN 72000 WHEN c.block_number % 1000 = 3 THEN 500
         ELSE 1 + floor(power(${u("c.block_number || ':r'")}, 8) * 11)::int END AS r,
       floor(${u("c.block_number || ':o'")} * $5)::bigint AS off
     FROM campaigns c JOIN unnest($6::int[], $7::int[]) ch(id, base) ON ch.id = c.distribution_chain_id
     WHERE c.start_timestamp <= $4 - 3600`,
    [first, STEP, TREES, now, pool, chains.map((c) => c.id), chains.map((c) => c.base)],
  );
  // A breakdown grows once: from its campaign's first tree a quarter-to-whole of half its share, from its last the whole share.
  await pg.query(
    `INSERT INTO reward_breakdown_versions (chain_id, recipient, token, campaign_id, reason, amount, since_seq, until_seq)
     SELECT c.chain_id, '0x' || lpad(to_hex((c.off + g.i) % $1), 40, '0'), c.token, c.campaign_id, '', v.amount, c.base + v.since_j,
       CASE WHEN v.until_j IS NULL THEN NULL ELSE c.base + v.until_j END
     FROM bench_rc c CROSS JOIN LATERAL generate_series(0, c.r - 1) g(i)
     CROSS JOIN LATERAL (
       SELECT trunc(c.amount / c.r * (1 + g.i % 7) / 8) AS amount, c.j1 AS since_j, c.j2 AS until_j WHERE c.j2 > c.j1
       UNION ALL
       SELECT trunc(c.amount / c.r * (1 + g.i % 7) / 4), c.j2, NULL
     ) v`,
    [pool],
  );
  // Leaves: each (recipient, token)'s breakdowns summed at every tree where one of them changed.
  await pg.query(
    `INSERT INTO reward_leaf_versions (chain_id, recipient, token, amount, since_seq, until_seq)
     SELECT chain_id, recipient, token, sum(delta) OVER w, seq, lead(seq) OVER w FROM (
       SELECT chain_id, recipient, token, seq, sum(delta) AS delta FROM (
         SELECT chain_id, recipient, token, since_seq AS seq, amount AS delta FROM reward_breakdown_versions
         UNION ALL
         SELECT chain_id, recipient, token, until_seq, -amount FROM reward_breakdown_versions WHERE until_seq IS NOT NULL
       ) e GROUP BY 1, 2, 3, 4
     ) d WHERE delta <> 0
     WINDOW w AS (PARTITION BY chain_id, recipient, token ORDER BY seq)`,
  );
  await pg.query(
    `UPDATE reward_trees t SET leaves = (SELECT count(*) FROM reward_leaf_versions v WHERE v.chain_id = t.chain_id
       AND v.since_seq <= t.seq AND (v.until_seq IS NULL OR v.until_seq > t.seq))
     WHERE t.seq % 1000 >= $1 - 2`,
    [TREES],
  );
  // The per-tree totals, by the migration's own backfill (what storeTreeTotals would have written tree by tree).
  const migration = readFileSync(TOTALS_MIGRATION, 'utf8');
  for (const statement of migration.split(';').filter((s) => /INSERT INTO reward_/.test(s))) await pg.query(statement);
  // The campaign totals' per-tree deltas, by that migration's own backfill, from the totals.
  const deltas = readFileSync(DELTAS_MIGRATION, 'utf8');
  for (const statement of deltas.split(';').filter((s) => /INSERT INTO reward_/.test(s))) await pg.query(statement);
  // About half the open leaves were claimed, up to half of their amount (as of an earlier root).
  await pg.query(
    `INSERT INTO claims (chain_id, recipient, token, amount, block_number, block_hash, tx_hash, log_index, timestamp)
     SELECT chain_id, recipient, token, trunc(amount / 2), 1, '0x', '0x' || md5(chain_id || recipient || token) || md5(recipient || token), 0, $1
     FROM reward_leaf_versions WHERE until_seq IS NULL AND ${u('recipient || token')} < 0.5`,
    [now - 86_400],
  );
  // The unclaimed amounts per campaign of each chain's latest trees, by that migration's own backfill (after the claims).
  const unclaimed = readFileSync(UNCLAIMED_MIGRATION, 'utf8');
  await pg.query(
    unclaimed.slice(unclaimed.indexOf('INSERT INTO reward_unclaimed_trees'), unclaimed.indexOf('-- Adds `deltas`')),
  );
  // Daily closes of the reward tokens over the trees' span, and a current price.
  await pg.query(
    `INSERT INTO token_price_history (token_id, day, open, close, min, max, source, updated_at)
     SELECT t.id, d::date, p, p, p * 0.98, p * 1.02, 'bench', d
     FROM tokens t CROSS JOIN LATERAL generate_series(to_timestamp($1) AT TIME ZONE 'UTC', to_timestamp($2) AT TIME ZONE 'UTC', interval '1 day') d
     CROSS JOIN LATERAL (SELECT (0.5 + 10 * ${u('t.id')}) * (1 + 0.3 * sin(extract(epoch FROM d) / 2e6)) AS p) x
     WHERE t.type <> 'POINT' AND t.address LIKE '0x0000%'`,
    [first - 30 * 86_400, now],
  );
  await pg.query(
    `INSERT INTO token_prices (token_id, price, price_source, updated_at, fetched_at)
     SELECT DISTINCT ON (token_id) token_id, close, 'bench', now(), now() FROM token_price_history ORDER BY token_id, day DESC`,
  );
  await pg.query('DROP TABLE bench_rc');
  const count = async (sql: string) => Number((await pg.query<{ n: string }>(sql)).rows[0]!.n);
  const big = await pg.query<{ chain_id: number; campaign_id: string }>(
    `SELECT distribution_chain_id AS chain_id, lower(campaign_id) AS campaign_id FROM campaigns
     WHERE block_number % 100000 = 7 AND start_timestamp <= $1 ORDER BY block_number`,
    [now - 3600],
  );
  const sample = await pg.query<{ recipient: string }>(
    `SELECT recipient FROM reward_leaf_versions WHERE until_seq IS NULL GROUP BY recipient ORDER BY count(*) DESC, recipient LIMIT 1`,
  );
  return {
    seconds: (performance.now() - t0) / 1000,
    trees: await count('SELECT count(*) AS n FROM reward_trees'),
    breakdownVersions: await count('SELECT count(*) AS n FROM reward_breakdown_versions'),
    leafVersions: await count('SELECT count(*) AS n FROM reward_leaf_versions'),
    claims: await count('SELECT count(*) AS n FROM claims'),
    bigCampaigns: big.rows.map((r) => ({ chainId: r.chain_id, campaignId: r.campaign_id })),
    sampleRecipient: sample.rows[0]?.recipient ?? `0x${'0'.repeat(40)}`,
  };
}
