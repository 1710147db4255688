import { expect } from 'chai';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

const CHAIN = 31337;
const PRICE = 2.5;

/**
 * GET /v4/rewards/total/distributed/by-opportunities (issue #33, the analytics view's top) on the
 * seeded demo: each opportunity's figure recomputed here in plain SQL from the stored trees'
 * breakdowns (per root up to the live one, minus the root before), the campaigns' opportunity and
 * the default campaign filters (no test token, not private), at one daily close per reward token.
 */
describe('GET /v4/rewards/total/distributed/by-opportunities', function () {
  let demo: ReferenceDemo;
  let expected: { opportunity_id: string; usd: number; campaigns: number }[];
  const q = <T extends Record<string, unknown>>(sql: string, args: unknown[] = []) =>
    demo.h.deps.pg.query<T>(sql, args).then((r) => r.rows);
  const get = (path: string) => demo.h.request().get(path);

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    // One daily close per reward token the day before the first root: what every root is valued at.
    await q(
      `INSERT INTO token_price_history (token_id, day, open, close, min, max, source, updated_at)
       SELECT tk.id, (to_timestamp((SELECT min(timestamp) FROM roots WHERE chain_id = $1)) AT TIME ZONE 'UTC')::date - 1,
         $2, $2, $2, $2, 'test', now()
       FROM tokens tk WHERE tk.chain_id = $1 AND lower(tk.address) IN (SELECT DISTINCT token FROM reward_breakdowns)
       ON CONFLICT (token_id, day) DO UPDATE SET close = $2`,
      [CHAIN, PRICE],
    );
    expected = await q(
      `WITH live AS (
         SELECT block_number, log_index FROM roots r JOIN reward_trees t USING (chain_id, root)
         WHERE r.chain_id = $1 AND NOT r.revoked AND t.status = 'verified' ORDER BY block_number DESC, log_index DESC LIMIT 1),
       counted AS (
         SELECT r.root, lag(r.root) OVER (ORDER BY r.block_number, r.log_index) AS prev,
           (r.block_number, r.log_index) <= (SELECT block_number, log_index FROM live) AS upto
         FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified'
         WHERE r.chain_id = $1 AND NOT r.revoked),
       sums AS (SELECT root, lower(campaign_id) AS campaign_id, token, sum(amount) AS amount
         FROM reward_breakdowns WHERE chain_id = $1 GROUP BY 1, 2, 3),
       deltas AS (
         SELECT n.campaign_id, n.token, n.amount - coalesce(o.amount, 0) AS delta
         FROM counted c JOIN sums n ON n.root = c.root
         LEFT JOIN sums o ON o.root = c.prev AND o.campaign_id = n.campaign_id AND o.token = n.token
         WHERE c.upto AND n.amount <> coalesce(o.amount, 0))
       SELECT cc.opportunity_id, sum(d.delta::float8 / 10 ^ tk.decimals * $2)::float8 AS usd,
         count(DISTINCT d.campaign_id)::int AS campaigns
       FROM deltas d
       JOIN campaigns_current cc ON cc.distribution_chain_id = $1 AND lower(cc.campaign_id) = d.campaign_id
       JOIN tokens rt ON rt.chain_id = $1 AND lower(rt.address) = lower(cc.reward_token)
       JOIN tokens tk ON tk.chain_id = $1 AND lower(tk.address) = d.token
       WHERE cc.opportunity_id IS NOT NULL AND NOT rt.is_test
         AND NOT EXISTS (SELECT 1 FROM campaign_privacy pv WHERE pv.campaign_db_id = cc.id AND pv.is_private)
       GROUP BY 1 ORDER BY 2 DESC, 1`,
      [CHAIN, PRICE],
    );
    expect(expected.length, 'opportunities whose campaigns distributed').to.be.greaterThan(1);
  });

  after(async () => demo?.close());

  it('answers the opportunities whose campaigns distributed the most USD, largest first, with their names', async function () {
    const top = (await get('/v4/rewards/total/distributed/by-opportunities?items=100').expect(200)).body as {
      opportunityId: string;
      name: string | null;
      chainId: number | null;
      usd: number;
      campaigns: number;
    }[];
    expect(top.map((o) => o.opportunityId)).to.deep.equal(expected.map((e) => e.opportunity_id));
    for (const [i, o] of top.entries()) {
      expect(o.usd, o.opportunityId).to.be.closeTo(expected[i]!.usd, 1e-6 * Math.max(1, expected[i]!.usd));
      expect(o.campaigns, o.opportunityId).to.equal(expected[i]!.campaigns);
      const opp = (await get(`/v4/opportunities/${o.opportunityId}`).expect(200)).body;
      expect([o.name, o.chainId]).to.deep.equal([opp.name, opp.chainId]);
    }
    // The opportunities add up to the total of /distributed (every counted campaign here has one).
    const total = (await get('/v4/rewards/total/distributed').expect(200)).body as number;
    expect(top.reduce((s, o) => s + o.usd, 0)).to.be.closeTo(total, 1e-6 * Math.max(1, total));
    const first = (await get('/v4/rewards/total/distributed/by-opportunities?items=1').expect(200)).body;
    expect(first).to.deep.equal(top.slice(0, 1));
    expect((await get('/v4/rewards/total/distributed/by-opportunities').expect(200)).body).to.deep.equal(
      top.slice(0, 10),
    );
  });

  it('takes the window and the campaign filters of /distributed', async function () {
    expect(
      (await get('/v4/rewards/total/distributed/by-opportunities?from=2999-01-01').expect(200)).body,
    ).to.deep.equal([]);
    const [one] = await q<{ campaign_id: string }>(
      `SELECT lower(cc.campaign_id) AS campaign_id FROM campaigns_current cc
       WHERE cc.opportunity_id = $1 AND EXISTS (SELECT 1 FROM reward_breakdowns b
         WHERE b.chain_id = $2 AND lower(b.campaign_id) = lower(cc.campaign_id)) ORDER BY 1 LIMIT 1`,
      [expected[0]!.opportunity_id, CHAIN],
    );
    const only = (
      await get(`/v4/rewards/total/distributed/by-opportunities?campaignId=${one!.campaign_id}`).expect(200)
    ).body as { opportunityId: string; campaigns: number }[];
    expect(only.map((o) => [o.opportunityId, o.campaigns])).to.deep.equal([[expected[0]!.opportunity_id, 1]]);
  });

  it('names the field of a bad request', async function () {
    for (const [query, field] of [
      ['items=0', 'items'],
      ['items=101', 'items'],
      ['grain=month', 'grain'],
      ['from=yesterday', 'from'],
    ] as const) {
      const res = await get(`/v4/rewards/total/distributed/by-opportunities?${query}`).expect(400);
      expect(JSON.stringify(res.body.errors), query).to.include(field);
    }
  });
});
