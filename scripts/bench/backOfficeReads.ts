/**
 * The back-office reward reads of issue #30 against an existing bench:rewards database (a script that prints
 * figures, never a timed test): `npx tsx scripts/bench/backOfficeReads.ts`. Reads the latest two verified trees
 * of the database's chain and times, one statement at a time, GET /v4/diffs/leaves, /v4/diffs/leaf-breakdowns,
 * /v4/diffs/leaf-tokens, /v4/historical/{campaign,recipient} and /v4/rewards?campaignId pages as the API
 * computes them (their repo functions), each BENCH_READS times (median and max); /v4/rewards?campaignId pages
 * also from the campaign anchors when the tree has them (BENCH_OLD=1 then checks them against the OFFSET walk). With BENCH_OLD=1 it also
 * runs each read once as it was computed before (test/helpers/backOfficeOracles.ts: every leaf sorted) and
 * checks that both answers are the same, row for row.
 * Options: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:55432/bench_rewards_h30reads) BENCH_READS=5 BENCH_OLD=1
 * BENCH_CAMPAIGN (the campaign of the campaign reads; default: the one with most recipients of the top token).
 * The database needs the migrations up to 2026_12_03_04 (claimed_totals, the per-tree totals and indexes).
 */
import { isDeepStrictEqual } from 'node:util';
import { breakdownsPage } from '../../api/routes/diffs/breakdownsPage.js';
import { leavesPage } from '../../api/routes/diffs/leavesPage.js';
import { leafTokens } from '../../api/routes/diffs/repo.js';
import type { BreakdownsQuery, LeavesQuery } from '../../api/routes/diffs/schema.js';
import { serializeBreakdowns, serializeLeaves } from '../../api/routes/diffs/serialize.js';
import { breakdownDiffPage } from '../../api/routes/historical/repo.js';
import { serializeHistorical } from '../../api/routes/historical/serialize.js';
import { anchoredTreeSeq, listCampaignRewards, listCampaignRewardsAnchored } from '../../api/reads/rewards/repo.js';
import { createPgPool } from '../../internal/pg.js';
import {
  oracleBreakdowns,
  oracleCampaignRewards,
  oracleDiff,
  oracleLeaves,
} from '../../test/helpers/backOfficeOracles.js';
import { envPositiveInt } from './benchParams.js';

const URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/bench_rewards_h30reads';
const READS = envPositiveInt('BENCH_READS', 5);
const OLD = process.env['BENCH_OLD'] === '1';

type Hex = `0x${string}`;
type Read = { name: string; run: () => Promise<unknown>; old?: () => Promise<unknown> };

async function main() {
  const pg = createPgPool({ connectionString: URL, applicationName: 'bench-back-office', max: 1, readOnly: true });
  await pg.query('SET statement_timeout = 0');
  const trees = (
    await pg.query<{ chain_id: number; root: string; seq: string; ts: number }>(
      `SELECT t.chain_id, t.root, t.seq::text AS seq, (SELECT min(r.timestamp) FROM roots r WHERE r.chain_id = t.chain_id AND r.root = t.root)::float8 AS ts
       FROM reward_trees t WHERE t.status = 'verified' AND t.seq IS NOT NULL ORDER BY t.seq DESC LIMIT 2`,
    )
  ).rows;
  const [end, start] = trees as [(typeof trees)[0], (typeof trees)[0] | undefined];
  const chainId = end.chain_id;
  const token = (
    await pg.query<{ token: Hex }>(
      'SELECT token FROM reward_token_totals WHERE chain_id = $1 AND seq <= $2 ORDER BY recipients DESC LIMIT 1',
      [chainId, end.seq],
    )
  ).rows[0]!.token;
  const campaign = ((process.env['BENCH_CAMPAIGN'] as Hex | undefined) ??
    (
      await pg.query<{ campaign_id: Hex }>(
        'SELECT campaign_id FROM reward_campaign_totals WHERE chain_id = $1 AND token = $2 AND seq <= $3 ORDER BY recipients DESC LIMIT 1',
        [chainId, token, end.seq],
      )
    ).rows[0]!.campaign_id) as Hex;
  const claimer = (
    await pg.query<{ recipient: Hex }>(
      'SELECT recipient FROM claimed_totals WHERE chain_id = $1 AND token = $2 LIMIT 1',
      [chainId, token],
    )
  ).rows[0]?.recipient;
  const recipient =
    claimer ??
    (await pg.query<{ recipient: Hex }>('SELECT recipient FROM reward_leaf_versions LIMIT 1')).rows[0]!.recipient;
  console.log(
    `chain ${chainId}, tree seq ${end.seq} (${end.root}), token ${token}, campaign ${campaign}, recipient ${recipient}`,
  );

  const live = { root: end.root, timestamp: end.ts };
  const leaves = (o: Partial<LeavesQuery>): Read => {
    const q: LeavesQuery = { chainId, tokenAddress: token, sort: 'amount', order: 'desc', page: 0, items: 100, ...o };
    return {
      name: `diffs/leaves ${JSON.stringify(o)}`,
      run: async () => serializeLeaves(end.root, q, await leavesPage(pg, q, end.seq)),
      old: async () => serializeLeaves(end.root, q, await oracleLeaves(pg, q, end.root)),
    };
  };
  const breakdowns = (o: Partial<BreakdownsQuery>): Read => {
    const q: BreakdownsQuery = {
      chainId,
      tokenAddress: token,
      sort: 'amount',
      order: 'desc',
      page: 0,
      items: 100,
      ...o,
    };
    return {
      name: `diffs/leaf-breakdowns ${JSON.stringify(o)}`,
      run: async () => serializeBreakdowns(live, q, await breakdownsPage(pg, q, end.seq)),
      old: async () => serializeBreakdowns(live, q, await oracleBreakdowns(pg, q, end.root)),
    };
  };
  const history = (by: 'campaign' | 'recipient', key: string, page: number): Read => {
    const p = { chainId, startRoot: start?.root ?? null, endRoot: end.root, by, key };
    const roots = [start ? { root: start.root, timestamp: start.ts } : null, live] as const;
    return {
      name: `historical/${by} page ${page}`,
      run: async () => serializeHistorical(...roots, await breakdownDiffPage(pg, { ...p, page, items: 1000 })),
      old: async () => serializeHistorical(...roots, await oracleDiff(pg, p, page, 1000)),
    };
  };
  const rewards = (page: number, hide: boolean): Read => {
    const p = { chainId, root: end.root, campaignId: campaign, hide, items: 100, offset: page * 100 };
    return {
      name: `rewards?campaignId page ${page} of 100${hide ? ' hide' : ''} (OFFSET)`,
      run: () => listCampaignRewards(pg, { ...p, after: null }),
      old: () => oracleCampaignRewards(pg, p),
    };
  };
  const seq = await anchoredTreeSeq(pg, chainId, end.root);
  const pages = Math.ceil(
    Number(
      (
        await pg.query<{ n: string }>(
          'SELECT count(*) AS n FROM reward_breakdowns WHERE chain_id = $1 AND root = $2 AND campaign_id = $3',
          [chainId, end.root, campaign],
        )
      ).rows[0]!.n,
    ) / 100,
  );
  const anchored = (page: number, hide: boolean): Read[] => {
    if (seq === null) return [];
    const p = { chainId, root: end.root, campaignId: campaign, hide, items: 100, offset: page * 100 };
    return [
      {
        name: `rewards?campaignId page ${page} of 100${hide ? ' hide' : ''} (anchors)`,
        run: () => listCampaignRewardsAnchored(pg, { ...p, seq }),
        old: () => listCampaignRewards(pg, { ...p, after: null }),
      },
    ];
  };
  console.log(`campaign pages of 100: ${pages}; tree ${seq === null ? 'not anchored' : 'anchored'}`);
  const reads: Read[] = [
    leaves({}),
    leaves({ page: 100 }),
    leaves({ sort: 'pending' }),
    leaves({ sort: 'claimed' }),
    leaves({ sort: 'recipient', order: 'asc' }),
    leaves({ recipient }),
    breakdowns({}),
    breakdowns({ page: 100 }),
    breakdowns({ sort: 'pending' }),
    breakdowns({ campaignId: campaign }),
    breakdowns({ recipient }),
    history('campaign', campaign.toLowerCase(), 0),
    history('recipient', recipient, 0),
    { name: 'diffs/leaf-tokens', run: () => leafTokens(pg, chainId, end.seq) },
    rewards(0, false),
    rewards(100, false),
    rewards(500, false),
    rewards(0, true),
    rewards(500, true),
    rewards(pages - 1, true),
    ...anchored(0, false),
    ...anchored(500, false),
    ...anchored(pages - 1, false),
    ...anchored(0, true),
    ...anchored(500, true),
    ...anchored(pages - 1, true),
  ];
  for (const read of reads) {
    const times: number[] = [];
    let answer: unknown;
    for (let i = 0; i < READS; i++) {
      const t0 = performance.now();
      answer = await read.run();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    let line = `${read.name.padEnd(60)} median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`;
    if (OLD && read.old) {
      const t0 = performance.now();
      const before = await read.old();
      line += `; before ${(performance.now() - t0).toFixed(0)} ms, ${isDeepStrictEqual(before, answer) ? 'same answer' : 'DIFFERENT ANSWER'}`;
    }
    console.log(line);
  }
  await pg.end();
}

await main();
