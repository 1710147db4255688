/**
 * The #33 reads in the search benchmark's mix (reward totals, unclaimed, distributed, prices, live
 * roots, reward tokens, user summary, fee revenue) over the reward data of rewardData.ts. They
 * have no raw Elasticsearch equivalent (PostgreSQL rollups, or a search only for the campaign
 * filters), so they are measured through the API and, as the PostgreSQL path, by plain SQL that
 * recomputes the same figure from the versioned rows without the rollups (what the route would
 * cost without them). Not cross-checked here: test/integration/api/rewardTotals.test.ts does that.
 * On-chain reads (/tokens/balances, /tokens/{id}/allowance) are left out: they cost an RPC call to
 * a chain, which the bench has not (its chains' RPC URL is unreachable).
 */
import { BENCH_CHAINS, rewardTokensOf } from './searchData.js';
import type { RewardDataResult } from './rewardData.js';
import type { BenchTargets, Kind, Params } from './searchQueries.js';

/** The live tree's seq of a chain (second-to-last root, rewardData.ts). */
const LIVE_SEQ = `(SELECT t.seq FROM reward_trees t WHERE t.chain_id = $1 ORDER BY t.seq DESC OFFSET 1 LIMIT 1)`;

const rows = async (t: BenchTargets, sql: string, values: unknown[]) => (await t.pg.query(sql, values)).rows;

/** Without rollups: a campaign's total and recipients summed over its breakdowns in the live tree. */
const sqlCampaignTotal = (t: BenchTargets, p: Params) =>
  rows(
    t,
    `SELECT sum(amount)::text, count(DISTINCT recipient) FROM reward_breakdown_versions
     WHERE chain_id = $1 AND campaign_id = $2 AND since_seq <= ${LIVE_SEQ} AND (until_seq IS NULL OR until_seq > ${LIVE_SEQ})`,
    [Number(p['chainId']), p['campaignId'] ?? p['campaignIds']],
  );

/** Without rollups: a token's total and leaves in the live tree. */
const sqlTokenTotal = (t: BenchTargets, p: Params) =>
  rows(
    t,
    `SELECT sum(amount)::text, count(*) FROM reward_leaf_versions
     WHERE chain_id = $1 AND token = $2 AND since_seq <= ${LIVE_SEQ} AND (until_seq IS NULL OR until_seq > ${LIVE_SEQ})`,
    [Number(p['chainId']), p['token'] ?? p['address']],
  );

/** Without rollups: what every campaign distributed per chain and month (each breakdown version's growth at its tree). */
const sqlDistributed = (t: BenchTargets) =>
  rows(
    t,
    `SELECT b.chain_id, to_char(to_timestamp(r.timestamp) AT TIME ZONE 'UTC', 'YYYY-MM'), sum(b.amount - coalesce(p.amount, 0))::text
     FROM reward_breakdown_versions b JOIN reward_trees t ON t.chain_id = b.chain_id AND t.seq = b.since_seq
     JOIN roots r ON r.chain_id = t.chain_id AND r.root = t.root
     LEFT JOIN reward_breakdown_versions p ON p.chain_id = b.chain_id AND p.recipient = b.recipient AND p.token = b.token
       AND p.campaign_id = b.campaign_id AND p.reason = b.reason AND p.until_seq = b.since_seq
     GROUP BY 1, 2`,
    [],
  );

/** The #33 kinds over `data`: big campaigns and the most common reward tokens rotate with the jitter. */
export function rewardKinds(data: RewardDataResult, backOfficeToken: string): Kind[] {
  const big = data.bigCampaigns.length ? data.bigCampaigns : [{ chainId: 1, campaignId: `0x${'0'.repeat(64)}` }];
  const bigOf = (j: number) => big[j % big.length]!;
  const tokenOf = (j: number) => {
    const chain = BENCH_CHAINS[j % 3]!;
    return { chainId: String(chain.id), token: rewardTokensOf(chain.id)[(j >> 2) % 3]!.address };
  };
  const backOffice = { authorization: backOfficeToken };
  return [
    {
      name: 'rewards/total campaign 72k recipients',
      filterAndBins: false,
      path: '/v4/rewards/total',
      params: (j) => ({ chainId: String(bigOf(j).chainId), campaignId: bigOf(j).campaignId }),
      sql: sqlCampaignTotal,
    },
    {
      name: 'rewards/count token',
      filterAndBins: false,
      path: '/v4/rewards/count',
      params: (j) => tokenOf(j),
      sql: sqlTokenTotal,
    },
    {
      name: 'rewards/unclaim campaign 72k recipients',
      filterAndBins: false,
      path: '/v4/rewards/unclaim',
      params: (j) => ({ chainId: String(bigOf(j).chainId), campaignIds: bigOf(j).campaignId }),
      sql: sqlCampaignTotal,
    },
    {
      name: 'rewards/unclaim token',
      filterAndBins: false,
      path: '/v4/rewards/unclaim',
      params: (j) => tokenOf(j),
      sql: sqlTokenTotal,
    },
    {
      name: 'rewards/total/distributed',
      filterAndBins: false,
      path: '/v4/rewards/total/distributed',
      // `from` before the first root varies the request, never the answer.
      params: (j) => ({ from: String(j) }),
      sql: sqlDistributed,
    },
    {
      name: 'distributed/by-chains month',
      filterAndBins: false,
      path: '/v4/rewards/total/distributed/by-chains',
      params: (j) => ({ from: String(j), grain: 'month' }),
      sql: sqlDistributed,
    },
    {
      name: 'distributed/by-protocols chain LIVE',
      filterAndBins: false,
      path: '/v4/rewards/total/distributed/by-protocols',
      params: (j) => ({ from: String(j), chainId: '8453', status: 'LIVE' }),
      sql: sqlDistributed,
    },
    {
      name: 'distributed/by-opportunities top 10',
      filterAndBins: false,
      path: '/v4/rewards/total/distributed/by-opportunities',
      params: (j) => ({ from: String(j) }),
      sql: sqlDistributed,
    },
    {
      name: 'prices chain',
      filterAndBins: false,
      path: '/v4/prices',
      params: (j) => ({ chainId: String(BENCH_CHAINS[j % BENCH_CHAINS.length]!.id), items: '50' }),
      sql: (t, p) =>
        rows(t, 'SELECT * FROM token_prices p JOIN tokens t ON t.id = p.token_id WHERE t.chain_id = $1', [
          Number(p['chainId']),
        ]),
    },
    {
      name: 'prices/history day',
      filterAndBins: false,
      path: '/v4/prices/history',
      params: (j) => ({ chainId: tokenOf(j).chainId, address: tokenOf(j).token, grain: 'day', format: 'json' }),
      sql: (t, p) =>
        rows(
          t,
          'SELECT h.* FROM token_price_history h JOIN tokens t ON t.id = h.token_id WHERE t.chain_id = $1 AND t.address = $2 ORDER BY day',
          [Number(p['chainId']), p['address']],
        ),
    },
    {
      name: 'roots/live',
      filterAndBins: false,
      path: '/v4/roots/live',
      params: () => ({}),
      sql: (t) => rows(t, 'SELECT DISTINCT ON (chain_id) * FROM roots ORDER BY chain_id, block_number DESC', []),
    },
    {
      name: 'tokens/reward chain',
      filterAndBins: false,
      path: '/v4/tokens/reward/8453',
      params: () => ({}),
      sql: (t) => rows(t, 'SELECT * FROM tokens WHERE chain_id = 8453 AND address LIKE $1', ['0x0000%']),
    },
    {
      name: 'users/{address}/rewards/summary',
      filterAndBins: false,
      path: `/v4/users/${data.sampleRecipient}/rewards/summary`,
      params: () => ({}),
      sql: (t) =>
        rows(t, 'SELECT chain_id, token, amount FROM reward_leaf_versions WHERE recipient = $1 AND until_seq IS NULL', [
          data.sampleRecipient,
        ]),
    },
    {
      name: 'accounting/revenues (back office)',
      filterAndBins: false,
      path: '/v4/accounting/revenues',
      headers: backOffice,
      params: () => ({}),
      sql: (t) =>
        rows(
          t,
          `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), distribution_chain_id, reward_token, sum(fee_amount)::text
           FROM campaigns GROUP BY 1, 2, 3`,
          [],
        ),
    },
    {
      name: 'accounting/revenues/chains/{id}',
      filterAndBins: false,
      path: '/v4/accounting/revenues/chains/10',
      headers: backOffice,
      params: () => ({}),
      sql: (t) =>
        rows(
          t,
          `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM'), reward_token, sum(fee_amount)::text
           FROM campaigns WHERE distribution_chain_id = 10 GROUP BY 1, 2`,
          [],
        ),
    },
  ];
}
