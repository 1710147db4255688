/**
 * Loads the synthetic data set of the search benchmark: PostgreSQL rows with multi-row unnest
 * inserts and Elasticsearch documents with the bulk API (~5k documents per request, every item
 * checked), refresh disabled during the load. Progress with rate and ETA on stderr.
 */
import type { EsClient } from '../../internal/es.js';
import type { PgPool } from '../../internal/pg.js';
import {
  BENCH_CHAINS,
  campaignCounts,
  createRandom,
  generateBatch,
  rewardTokensOf,
  type GeneratedBatch,
} from './searchData.js';

const OPPORTUNITIES_PER_BATCH = 2000;
const DOCS_PER_BULK = 5000;

export type LoadParams = {
  pg: PgPool;
  es: EsClient;
  indices: { opportunities: string; campaigns: string };
  opportunities: number;
  campaigns: number;
  now: number;
  seed: number;
};
export type LoadResult = {
  opportunities: number;
  campaigns: number;
  nestedWindows: number;
  maxCampaignsPerOpportunity: number;
  seconds: number;
};

async function insertBatch(pg: PgPool, b: GeneratedBatch): Promise<void> {
  const client = await pg.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO opportunities (id, chain_id, type, identifier, action, created_at) SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])`,
      [
        b.opportunities.map((o) => o.id),
        b.opportunities.map((o) => o.chainId),
        b.opportunities.map((o) => o.type),
        b.opportunities.map((o) => o.identifier),
        b.opportunities.map((o) => o.action),
        b.opportunities.map((o) => o.createdAt),
      ],
    );
    await client.query(
      `INSERT INTO opportunity_metrics (opportunity_id, computed_at, tvl, apr, daily_rewards, max_daily_rewards, records, inputs)
       SELECT id, now(), tvl, apr, d, mx, '{}', '{}' FROM unnest($1::text[], $2::float8[], $3::float8[], $4::float8[], $5::float8[]) AS u(id, tvl, apr, d, mx)`,
      [
        b.metrics.map((m) => m.opportunityId),
        b.metrics.map((m) => m.tvl),
        b.metrics.map((m) => m.apr),
        b.metrics.map((m) => m.dailyRewards),
        b.metrics.map((m) => m.maxDailyRewards),
      ],
    );
    await client.query(
      `INSERT INTO tokens (id, chain_id, address, name, symbol, decimals, verified) SELECT id, c, a, n, s, 18, true FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[]) AS u(id, c, a, n, s)`,
      [
        b.targets.map((t) => t.id),
        b.targets.map((t) => t.chainId),
        b.targets.map((t) => t.address),
        b.targets.map((t) => t.name),
        b.targets.map((t) => t.symbol),
      ],
    );
    const c = b.campaigns;
    await client.query(
      `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type, start_timestamp, end_timestamp,
         campaign_data, block_number, block_hash, tx_hash, log_index, created_at, main_parameter, opportunity_id, params, fee_amount)
       SELECT id, ch, ch, cid, cr, rt, amt, ct, st, en, data, k, '0x', '0x' || lpad(to_hex(k), 64, '0'), 0, ca, mp, oid, p,
         CASE WHEN k % 20 <> 0 THEN trunc(amt * 3 / 97) END
       FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::numeric[], $7::int[], $8::bigint[], $9::bigint[], $10::text[], $11::bigint[],
         $12::timestamptz[], $13::text[], $14::text[], $15::jsonb[]) AS u(id, ch, cid, cr, rt, amt, ct, st, en, data, k, ca, mp, oid, p)`,
      [
        c.map((x) => x.id),
        c.map((x) => x.chainId),
        c.map((x) => x.campaignId),
        c.map((x) => x.creator),
        c.map((x) => x.rewardToken),
        c.map((x) => x.amount),
        c.map((x) => x.campaignType),
        c.map((x) => x.start),
        c.map((x) => x.end),
        c.map((x) => x.data),
        c.map((x) => x.k),
        c.map((x) => x.createdAt),
        c.map((x) => x.mainParameter),
        c.map((x) => x.opportunityId),
        c.map((x) => JSON.stringify(x.params)),
      ],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Bulk-indexes documents with `_id` = document id, in requests of DOCS_PER_BULK; throws on the first failed item. */
async function bulkIndex(es: EsClient, index: string, docs: { id: string }[]): Promise<void> {
  for (let i = 0; i < docs.length; i += DOCS_PER_BULK) {
    const operations = docs.slice(i, i + DOCS_PER_BULK).flatMap((d) => [{ index: { _index: index, _id: d.id } }, d]);
    const res = await es.bulk({ operations, refresh: false }, { requestTimeout: 120_000 });
    if (res.errors) {
      const failed = res.items.find((it) => it.index?.error);
      throw new Error(`bulk into ${index} failed: ${JSON.stringify(failed?.index?.error)}`);
    }
  }
}

const fmt = (s: number) =>
  s >= 60 ? `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${s.toFixed(0)}s`;

/**
 * Generates and writes the whole data set. Generation of batch N+1 overlaps the writes of batch N
 * (PostgreSQL and Elasticsearch in parallel). Refresh is off during the load, then restored.
 */
export async function loadDataSet(p: LoadParams): Promise<LoadResult> {
  const t0 = performance.now();
  const r = createRandom(p.seed);
  const counts = campaignCounts(r, p.opportunities, p.campaigns);
  const rewards = BENCH_CHAINS.flatMap((c) => rewardTokensOf(c.id));
  await p.pg.query(
    `INSERT INTO tokens (id, chain_id, address, name, symbol, decimals, type, is_test, verified) SELECT id, c, a, s, s, 18, t, te, true
     FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::bool[]) AS u(id, c, a, s, t, te)`,
    [
      rewards.map((t) => t.id),
      rewards.map((t) => t.chainId),
      rewards.map((t) => t.address),
      rewards.map((t) => t.symbol),
      rewards.map((t) => t.type),
      rewards.map((t) => t.isTest),
    ],
  );
  const indices = [p.indices.opportunities, p.indices.campaigns];
  const before = await p.es.indices.getSettings({ index: indices.join(','), name: 'index.refresh_interval' });
  await p.es.indices.putSettings({ index: indices.join(','), settings: { index: { refresh_interval: '-1' } } });
  let pending: Promise<unknown> = Promise.resolve();
  let campaignsDone = 0;
  let nested = 0;
  try {
    for (let from = 0; from < p.opportunities; from += OPPORTUNITIES_PER_BATCH) {
      const to = Math.min(p.opportunities, from + OPPORTUNITIES_PER_BATCH);
      const batch = generateBatch(r, counts, from, to, campaignsDone, p.now);
      campaignsDone += batch.campaigns.length;
      nested += batch.campaigns.length;
      await pending;
      pending = Promise.all([
        insertBatch(p.pg, batch),
        bulkIndex(p.es, p.indices.opportunities, batch.opportunityDocs).then(() =>
          bulkIndex(p.es, p.indices.campaigns, batch.campaignDocs),
        ),
      ]);
      const elapsed = (performance.now() - t0) / 1000;
      const done = (to + campaignsDone) / (p.opportunities + p.campaigns);
      process.stderr.write(
        `  load ${to}/${p.opportunities} opportunities, ${campaignsDone}/${p.campaigns} campaigns — ${((to + campaignsDone) / elapsed).toFixed(0)} rows/s, ETA ${fmt(elapsed / done - elapsed)}   \r`,
      );
    }
    await pending;
  } finally {
    await pending.catch(() => {});
    for (const index of indices) {
      const interval =
        (before as Record<string, { settings?: { index?: { refresh_interval?: string } } }>)[index]?.settings?.index
          ?.refresh_interval ?? '1s';
      await p.es.indices.putSettings({ index, settings: { index: { refresh_interval: interval } } });
    }
  }
  await p.es.indices.refresh({ index: indices.join(',') });
  process.stderr.write('\n');
  return {
    opportunities: p.opportunities,
    campaigns: campaignsDone,
    nestedWindows: nested,
    maxCampaignsPerOpportunity: counts.reduce((m, n) => Math.max(m, n), 0),
    seconds: (performance.now() - t0) / 1000,
  };
}
