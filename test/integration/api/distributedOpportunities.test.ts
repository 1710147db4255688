import { expect } from 'chai';
import { distributedByCampaign, setRewardTokenClose } from '../../helpers/distributedSql.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

const CHAIN = 31337;
const PRICE = 2.5;

/**
 * GET /v4/rewards/total/distributed/by-opportunities (issue #33, the analytics view's top) on the
 * seeded demo: each opportunity's figure recomputed in plain SQL from the stored trees' breakdowns
 * (test/helpers/distributedSql.ts), summed here per opportunity, at one daily close per reward token.
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
    await setRewardTokenClose(demo.h.deps.pg, CHAIN, PRICE);
    const byOpportunity = new Map<string, { usd: number; campaigns: number }>();
    for (const c of await distributedByCampaign(demo.h.deps.pg, CHAIN, PRICE)) {
      if (!c.opportunity_id) continue;
      const o = byOpportunity.get(c.opportunity_id) ?? { usd: 0, campaigns: 0 };
      byOpportunity.set(c.opportunity_id, { usd: o.usd + c.usd, campaigns: o.campaigns + 1 });
    }
    expected = [...byOpportunity]
      .map(([opportunity_id, o]) => ({ opportunity_id, ...o }))
      .sort((a, b) => b.usd - a.usd || a.opportunity_id.localeCompare(b.opportunity_id));
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
