import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * Independent check of the metrics job: recomputes every stored campaign and opportunity figure
 * from the inputs stored beside it (not from the job's code) and lists disagreements.
 * Usage: `tsx scripts/recomputeMetrics.ts` (DATABASE_URL from the environment); exit 1 on mismatch.
 */
export async function recomputeMetrics({
  databaseUrl,
}: {
  databaseUrl: string;
}): Promise<{ checked: number; mismatches: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const mismatches: string[] = [];
    const close = (a: number | null, b: number | null) =>
      a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
    const units = (amount: string, decimals: number) => Number(amount) / 10 ** decimals;
    type Inputs = {
      amount: string;
      decimals: number;
      durationSeconds: number;
      price: number | null;
      priceStale: boolean;
      tvlUsd: number | null;
    };
    // A campaign distributes only inside [start, end): at the computation time, outside it both figures are 0.
    const campaigns = await client.query<{
      id: string;
      daily: number | null;
      apr: number | null;
      inputs: Inputs;
      at: string;
      start: string;
      end: string;
    }>(
      `SELECT m.campaign_db_id AS id, m.daily_rewards_usd AS daily, m.apr, m.inputs, floor(extract(epoch FROM m.computed_at))::bigint::text AS at,
         c.start_timestamp::text AS start, c.end_timestamp::text AS end
       FROM campaign_metrics m JOIN campaigns_current c ON c.id = m.campaign_db_id`,
    );
    const dailyById = new Map<string, number | null>();
    for (const c of campaigns.rows) {
      const i = c.inputs;
      const inWindow = Number(c.start) <= Number(c.at) && Number(c.at) < Number(c.end);
      const daily = !inWindow
        ? 0
        : i.price === null || i.priceStale
          ? null
          : units(i.amount, i.decimals) * (86_400 / i.durationSeconds) * i.price;
      const apr = !inWindow ? 0 : daily !== null && i.tvlUsd ? (daily * 365 * 100) / i.tvlUsd : null;
      if (!close(daily, c.daily)) mismatches.push(`campaign ${c.id}: dailyRewards ${c.daily}, recomputed ${daily}`);
      if (!close(apr, c.apr)) mismatches.push(`campaign ${c.id}: apr ${c.apr}, recomputed ${apr}`);
      dailyById.set(c.id, c.daily);
    }
    type TvlToken = { amount: string | null; decimals: number | null; price: { price: number; stale: boolean } | null };
    // `tokens` since TVL per protocol (#42, a pool has two); rows stored before it hold one token inline.
    type OppInputs = { tvl: TvlToken & { tokens?: TvlToken[] }; liveCampaigns: string[] };
    const opportunities = await client.query<{
      id: string;
      tvl: number | null;
      apr: number | null;
      daily: number;
      inputs: OppInputs;
    }>('SELECT opportunity_id AS id, tvl, apr, daily_rewards AS daily, inputs FROM opportunity_metrics');
    for (const o of opportunities.rows) {
      const tokens = o.inputs.tvl.tokens ?? [o.inputs.tvl];
      const values = tokens.map((t) =>
        t.amount !== null && t.decimals !== null && t.price && !t.price.stale
          ? units(t.amount, t.decimals) * t.price.price
          : null,
      );
      // An unknown TVL (no token read, or one unpriced) is null, and so is its APR (#42); a known 0 has APR 0.
      const tvl = values.length && values.every((v) => v !== null) ? values.reduce((a, v) => a + v!, 0) : null;
      const daily = o.inputs.liveCampaigns.reduce((sum, id) => sum + (dailyById.get(id) ?? 0), 0);
      const apr = tvl === null ? null : tvl ? (daily * 365 * 100) / tvl : 0;
      if (!close(tvl, o.tvl)) mismatches.push(`opportunity ${o.id}: tvl ${o.tvl}, recomputed ${tvl}`);
      if (!close(daily, o.daily)) mismatches.push(`opportunity ${o.id}: dailyRewards ${o.daily}, recomputed ${daily}`);
      if (!close(apr, o.apr)) mismatches.push(`opportunity ${o.id}: apr ${o.apr}, recomputed ${apr}`);
    }
    return { checked: campaigns.rows.length + opportunities.rows.length, mismatches };
  } finally {
    await client.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards';
  const report = await recomputeMetrics({ databaseUrl });
  console.log(`checked ${report.checked} figures, ${report.mismatches.length} mismatches`);
  for (const m of report.mismatches) console.log(`  ${m}`);
  process.exit(report.mismatches.length ? 1 : 0);
}
