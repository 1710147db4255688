import { expect } from 'chai';
import { signSession } from '../../../api/identity/jwt.js';
import { distributedByCampaign, setRewardTokenClose } from '../../helpers/distributedSql.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';
import { storeTreeEntries } from '../../../indexer/store/stageRewardTree.js';
import { withTransaction } from '../../../internal/pg.js';
import { migrationPart, rowsRebuiltByBackfill } from '../../helpers/migrationBackfill.js';

const CHAIN = 31337;
const PRICE = 2.5;
/** A campaign filter every campaign passes that only Elasticsearch applies: the per-campaign path. */
const VIA_ES = 'createdAfter=1970-01-01';

/**
 * GET /v4/rewards/total/distributed from the per-tree rollup (reward_campaign_deltas, issue #33):
 * the rows written at ingestion equal the migration's backfill; the PostgreSQL path (no filter, or
 * only chain, compute chain, status) answers what the Elasticsearch path answers; a private campaign
 * and a revoked root count as test/helpers/distributedSql.ts recomputes them.
 */
describe('GET /v4/rewards/total/distributed from the per-tree rollup', function () {
  let demo: ReferenceDemo;
  const q = <T extends Record<string, unknown>>(sql: string, args: unknown[] = []) =>
    demo.h.deps.pg.query<T>(sql, args).then((r) => r.rows);
  const get = async (path: string, headers: Record<string, string> = {}) =>
    (await demo.h.request().get(path).set(headers).expect(200)).body;
  const usdOf = (rows: { usd: number }[]) => rows.reduce((s, r) => s + r.usd, 0);
  const rounded = (body: unknown): unknown =>
    JSON.parse(JSON.stringify(body, (_k, v) => (typeof v === 'number' ? Number(v.toPrecision(9)) : v)));
  const near = (a: number, b: number, what: string) =>
    expect(a, what).to.be.closeTo(b, 1e-6 * Math.max(1, Math.abs(b)));

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    await setRewardTokenClose(demo.h.deps.pg, CHAIN, PRICE);
  });

  after(async () => demo?.close());

  it('writes at ingestion the deltas the migration backfills from the totals', async function () {
    const { ingested, rebuilt } = await rowsRebuiltByBackfill(demo.h.deps.pg, {
      clear: 'DELETE FROM reward_campaign_deltas',
      backfill: migrationPart('2026_12_02_01_reward_campaign_deltas.sql', 'INSERT INTO reward_campaign_deltas'),
      rows: (client) =>
        client
          .query(
            'SELECT chain_id, seq::text, campaign_id, token, delta::text FROM reward_campaign_deltas ORDER BY 1, 2, 3, 4',
          )
          .then((r) => r.rows),
    });
    expect(ingested.length).to.be.greaterThan(0);
    expect(rebuilt).to.deep.equal(ingested);
  });

  it('answers on the PostgreSQL path what the Elasticsearch path answers, by every grouping', async function () {
    const expected = usdOf(await distributedByCampaign(demo.h.deps.pg, CHAIN, PRICE));
    expect(expected).to.be.greaterThan(0);
    near(await get('/v4/rewards/total/distributed'), expected, 'total');
    for (const filters of [
      '',
      `distributionChainIds=${CHAIN}`,
      'status=LIVE,PAST',
      'status=SOON',
      `chainId=${CHAIN}`,
      `chainId=${CHAIN}&status=LIVE`,
      'test=true&excludeSubCampaigns=true',
    ]) {
      for (const route of ['', '/by-chains', '/by-types', '/by-protocols', '/by-tokens', '?grain=month']) {
        const path = `/v4/rewards/total/distributed${route}${route.includes('?') ? '&' : '?'}${filters}`;
        const [pg, es] = [await get(path), await get(`${path}&${VIA_ES}`)];
        // Sums in another order: equal up to floating point (object keys in any order).
        expect(rounded(pg), path).to.deep.equal(rounded(es));
      }
      const top = `/v4/rewards/total/distributed/by-opportunities?items=100&${filters}`;
      const [pg, es] = [await get(top), await get(`${top}&${VIA_ES}`)];
      expect(
        pg.map((o: { opportunityId: string; campaigns: number }) => [o.opportunityId, o.campaigns]),
        top,
      ).to.deep.equal(es.map((o: { opportunityId: string; campaigns: number }) => [o.opportunityId, o.campaigns]));
    }
    expect(await get('/v4/rewards/total/distributed?distributionChainIds=1')).to.equal(0);
  });

  it('counts a private campaign in the totals without filters only for callers who may see it', async function () {
    const campaigns = await distributedByCampaign(demo.h.deps.pg, CHAIN, PRICE);
    const all = usdOf(campaigns);
    const c = campaigns.find((x) => x.usd > 0)!;
    const [row] = await q<{ id: string; creator: string }>(
      `SELECT id, lower(creator) AS creator FROM campaigns WHERE distribution_chain_id = $1 AND lower(campaign_id) = $2`,
      [CHAIN, c.campaign_id],
    );
    const as = (address: string) => ({
      Cookie: `jwt=${signSession({ secret: demo.h.config.jwtSecret, address, tier: 0 }).token}`,
    });
    await demo.h
      .request()
      .patch(`/v4/campaigns/${row!.id}/privacy`)
      .set(as(row!.creator))
      .send({ isPrivate: true, recipientsCanView: false })
      .expect(200);
    try {
      const stranger = as(`0x${'77'.repeat(20)}`);
      near(await get('/v4/rewards/total/distributed?showPrivate=true', stranger), all - c.usd, 'stranger');
      near(await get('/v4/rewards/total/distributed?from=1', stranger), all - c.usd, 'stranger, no showPrivate');
      near(await get('/v4/rewards/total/distributed?showPrivate=true', as(row!.creator)), all, 'creator');
      const top = await get('/v4/rewards/total/distributed/by-opportunities?items=100&from=2', stranger);
      expect(usdOf(top)).to.be.closeTo(all - c.usd, 1e-6 * Math.max(1, all));
    } finally {
      await demo.h
        .request()
        .patch(`/v4/campaigns/${row!.id}/privacy`)
        .set(as(row!.creator))
        .send({ isPrivate: false, recipientsCanView: false })
        .expect(200);
    }
  });

  it('counts what a revoked root changed with the next counted root', async function () {
    const roots = await q<{ root: string }>(
      `SELECT r.root FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified'
       WHERE r.chain_id = $1 AND NOT r.revoked ORDER BY r.block_number, r.log_index`,
      [CHAIN],
    );
    expect(roots.length, 'verified roots').to.be.greaterThan(2);
    // The first root: what it distributed then counts with the second one (the sum telescopes).
    const revoked = roots[0]!.root;
    await q('UPDATE roots SET revoked = true WHERE chain_id = $1 AND root = $2', [CHAIN, revoked]);
    try {
      const expected = usdOf(await distributedByCampaign(demo.h.deps.pg, CHAIN, PRICE));
      near(await get('/v4/rewards/total/distributed?from=3'), expected, 'PostgreSQL path');
      near(await get(`/v4/rewards/total/distributed?from=3&${VIA_ES}`), expected, 'Elasticsearch path');
    } finally {
      await q('UPDATE roots SET revoked = false WHERE chain_id = $1 AND root = $2', [CHAIN, revoked]);
    }
  });

  it("counts each root by its own tree when trees were stored out of the roots' order (a tree fetched late, or stored again)", async function () {
    this.timeout(120_000);
    const roots = await q<{ root: string; seq: string }>(
      `SELECT r.root, t.seq::text FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified'
       WHERE r.chain_id = $1 AND NOT r.revoked ORDER BY r.block_number, r.log_index`,
      [CHAIN],
    );
    expect(roots.length, 'verified roots').to.be.greaterThan(2);
    const expected = usdOf(await distributedByCampaign(demo.h.deps.pg, CHAIN, PRICE));
    /** Stores the tree of `root` again, as the roots job does: it takes the next seq. */
    const storeAgain = async (root: string) => {
      const rows = await q<{ recipient: string; token: string; campaign_id: string; reason: string; amount: string }>(
        `SELECT recipient, token, campaign_id, reason, amount::text FROM reward_breakdowns WHERE chain_id = $1 AND root = $2`,
        [CHAIN, root],
      );
      const leaves = new Map<string, bigint>();
      for (const r of rows)
        leaves.set(`${r.recipient}|${r.token}`, (leaves.get(`${r.recipient}|${r.token}`) ?? 0n) + BigInt(r.amount));
      await withTransaction(demo.h.deps.pg, (tx) =>
        storeTreeEntries(tx, {
          chainId: CHAIN,
          root,
          leaves: [...leaves].map(([key, amount]) => {
            const [recipient, token] = key.split('|') as [string, string];
            return { recipient, token, amount: amount.toString() };
          }),
          breakdowns: rows.map((r) => ({ ...r, campaignId: r.campaign_id })),
        }),
      );
    };
    // The first root's tree now comes after the second's: on the old read the second root's change
    // (its seq range ran backwards) was lost.
    await storeAgain(roots[0]!.root);
    await storeAgain(roots.at(-1)!.root); // the live tree is the open state again
    const [first, second] = await q<{ seq: string }>(
      `SELECT t.seq::text FROM reward_trees t WHERE t.chain_id = $1 AND t.root = ANY($2::text[])
       ORDER BY array_position($2::text[], t.root)`,
      [CHAIN, [roots[0]!.root, roots[1]!.root]],
    );
    expect(Number(first!.seq), "the first root's tree stored after the second's").to.be.greaterThan(
      Number(second!.seq),
    );
    expect(usdOf(await distributedByCampaign(demo.h.deps.pg, CHAIN, PRICE)), 'the truth is unchanged').to.be.closeTo(
      expected,
      1e-6 * expected,
    );
    /** A read and the path that answered it (Server-Timing). */
    const read = async (path: string) => {
      const res = await demo.h.request().get(path).expect(200);
      return { usd: res.body as number, via: /distributed;desc=(\w+)/.exec(String(res.headers['server-timing']))?.[1] };
    };
    const exact = await read('/v4/rewards/total/distributed');
    expect(exact.via).to.equal('exact');
    near(exact.usd, expected, 'exact read');
    near(await get(`/v4/rewards/total/distributed?from=4&${VIA_ES}`), expected, 'Elasticsearch path');
    expect((await demo.h.runJob('distributed')).status).to.equal('success');
    const rolled = await read('/v4/rewards/total/distributed');
    expect(rolled.via).to.equal('rollup');
    near(rolled.usd, expected, 'rollup');
  });
});
