import { expect } from 'chai';
import { signSession } from '../../../api/identity/jwt.js';
import { distributorAbi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import { tokenDbId } from '../../../domain/ids.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { createReferenceDemo, priceRewardTokensBeforeFirstRoot, type ReferenceDemo } from './referenceDemo.js';
import { migrationPart, rowsRebuiltByBackfill } from '../../helpers/migrationBackfill.js';

const CHAIN = 31337;

/**
 * Reward totals (issue #33) on the seeded demo: every figure recomputed here from PostgreSQL's own
 * tables (leaves and breakdowns of each stored tree, claims, price history) in plain SQL, the live
 * root read from the Distributor.
 */
describe('GET /v4/rewards/total, /count, /unclaim, /total/distributed and /users/{address}/rewards/summary', function () {
  let demo: ReferenceDemo;
  let live: string;
  let campaigns: { campaign_id: string; id: string; creator: string; token: string }[];
  const q = <T extends Record<string, unknown>>(sql: string, args: unknown[] = []) =>
    demo.h.deps.pg.query<T>(sql, args).then((r) => r.rows);
  const get = (path: string, headers: Record<string, string> = {}) => demo.h.request().get(path).set(headers);
  const as = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: demo.h.config.jwtSecret, address, tier: 0 }).token}`,
  });

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    const { devnet, stack } = demo.h.chains[0]!;
    live = (
      await createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: CHAIN }).publicClient.readContract({
        address: stack.distributor,
        abi: distributorAbi,
        functionName: 'getMerkleRoot',
      })
    ).toLowerCase();
    campaigns = await q(
      `SELECT DISTINCT lower(b.campaign_id) AS campaign_id, c.id, lower(c.creator) AS creator, b.token
       FROM reward_breakdowns b JOIN campaigns c ON c.distribution_chain_id = b.chain_id AND lower(c.campaign_id) = lower(b.campaign_id)
       WHERE b.chain_id = $1 AND b.root = $2 ORDER BY 1`,
      [CHAIN, live],
    );
    expect(campaigns.length, 'campaigns rewarded in the live root').to.be.greaterThan(1);
  });

  after(async () => demo?.close());

  it('keeps per-tree totals equal to the sums over every stored tree, written at ingestion and by the migration alike', async function () {
    const trees = await q<{ root: string; seq: string }>(
      "SELECT root, seq::text AS seq FROM reward_trees WHERE chain_id = $1 AND status = 'verified' ORDER BY seq",
      [CHAIN],
    );
    expect(trees.length).to.be.greaterThan(1);
    const rollup = async (root: string, seq: string) => ({
      campaigns: await q(
        `SELECT DISTINCT ON (campaign_id, token) campaign_id, token, amount::text, recipients FROM reward_campaign_totals
         WHERE chain_id = $1 AND seq <= $2 ORDER BY campaign_id, token, seq DESC`,
        [CHAIN, seq],
      ).then((rows) => rows.filter((r) => (r as { amount: string }).amount !== '0')),
      tokens: await q(
        `SELECT DISTINCT ON (token) token, amount::text, recipients FROM reward_token_totals
         WHERE chain_id = $1 AND seq <= $2 ORDER BY token, seq DESC`,
        [CHAIN, seq],
      ).then((rows) => rows.filter((r) => (r as { amount: string }).amount !== '0')),
      root,
    });
    const recomputed = async (root: string) => ({
      campaigns: await q(
        `SELECT campaign_id, token, sum(amount)::text AS amount, count(DISTINCT recipient)::int AS recipients FROM reward_breakdowns
         WHERE chain_id = $1 AND root = $2 GROUP BY 1, 2 HAVING sum(amount) <> 0 ORDER BY 1, 2`,
        [CHAIN, root],
      ),
      tokens: await q(
        `SELECT token, sum(amount)::text AS amount, count(*)::int AS recipients FROM rewards
         WHERE chain_id = $1 AND root = $2 GROUP BY 1 HAVING sum(amount) <> 0 ORDER BY 1`,
        [CHAIN, root],
      ),
      root,
    });
    for (const t of trees) expect(await rollup(t.root, t.seq)).to.deep.equal(await recomputed(t.root));
    // The migration's backfill over the same versions gives the same rows (rolled back afterwards).
    const { ingested, rebuilt } = await rowsRebuiltByBackfill(demo.h.deps.pg, {
      clear: 'DELETE FROM reward_campaign_totals; DELETE FROM reward_token_totals',
      backfill: migrationPart('2026_11_30_07_reward_totals.sql', 'INSERT INTO reward_token_totals'),
      rows: (client) =>
        client
          .query(
            `SELECT 'c' AS k, campaign_id, token, seq::text, amount::text, recipients FROM reward_campaign_totals
             UNION ALL SELECT 't', '', token, seq::text, amount::text, recipients FROM reward_token_totals ORDER BY 1, 2, 3, 4`,
          )
          .then((r) => r.rows),
    });
    expect(rebuilt).to.deep.equal(ingested);
  });

  it('answers each campaign’s total and recipients in the live root (query and hosted path forms)', async function () {
    for (const c of campaigns) {
      const [expected] = await q<{ amount: string; count: number }>(
        `SELECT sum(amount)::text AS amount, count(DISTINCT recipient)::int AS count FROM reward_breakdowns
         WHERE chain_id = $1 AND root = $2 AND lower(campaign_id) = $3`,
        [CHAIN, live, c.campaign_id],
      );
      const total = await get(`/v4/rewards/total?chainId=${CHAIN}&campaignId=${c.campaign_id}`).expect(200);
      expect(total.body).to.deep.equal({
        chainId: CHAIN,
        campaignId: c.campaign_id,
        root: live,
        amount: expected!.amount,
      });
      const count = await get(`/v4/rewards/count/?chainId=${CHAIN}&campaignId=${c.campaign_id}`).expect(200);
      expect(count.body).to.deep.equal({
        chainId: CHAIN,
        campaignId: c.campaign_id,
        root: live,
        count: expected!.count,
      });
      const path = await get(`/v4/rewards/campaign/${c.campaign_id}/total?chainId=${CHAIN}`).expect(200);
      expect(path.body.amount).to.equal(expected!.amount);
      const pathCount = await get(`/v4/rewards/campaign/${c.campaign_id}/count?chainId=${CHAIN}`).expect(200);
      expect(pathCount.body.count).to.equal(expected!.count);
    }
  });

  it('answers each token’s total and recipients in the live root', async function () {
    const tokens = await q<{ token: string; amount: string; count: number }>(
      `SELECT token, sum(amount)::text AS amount, count(*)::int AS count FROM rewards WHERE chain_id = $1 AND root = $2 GROUP BY 1`,
      [CHAIN, live],
    );
    for (const t of tokens) {
      const total = await get(`/v4/rewards/total?chainId=${CHAIN}&token=${t.token}`).expect(200);
      expect(total.body).to.deep.equal({
        chainId: CHAIN,
        token: t.token,
        rewardTokenId: tokenDbId(CHAIN, t.token),
        root: live,
        amount: t.amount,
      });
      expect((await get(`/v4/rewards/count?chainId=${CHAIN}&token=${t.token}`).expect(200)).body.count).to.equal(
        t.count,
      );
      expect(
        (await get(`/v4/rewards/token/total?chainId=${CHAIN}&address=${t.token}`).expect(200)).body.amount,
      ).to.equal(t.amount);
    }
  });

  it('names the field of a bad request and answers an unknown campaign as absent', async function () {
    const neither = await get(`/v4/rewards/total?chainId=${CHAIN}`).expect(400);
    expect(neither.body.errors[0].field).to.equal('campaignId');
    const both = await get(
      `/v4/rewards/count?chainId=${CHAIN}&campaignId=${campaigns[0]!.campaign_id}&token=${campaigns[0]!.token}`,
    ).expect(400);
    expect(both.body.errors[0].field).to.equal('token');
    const bad = await get('/v4/rewards/total?chainId=x&campaignId=0x1').expect(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).to.include.members(['chainId', 'campaignId']);
    await get(`/v4/rewards/total?chainId=${CHAIN}&campaignId=0x${'ab'.repeat(32)}`).expect(404);
    const window = await get('/v4/rewards/total/distributed?from=yesterday').expect(400);
    expect(window.body.errors[0].field).to.equal('from');
    const unclaim = await get(`/v4/rewards/unclaim?chainId=${CHAIN}`).expect(400);
    expect(unclaim.body.errors[0].field).to.equal('campaignIds');
  });

  it('answers what each campaign’s recipients left unclaimed (pro rata of their pending amounts) and a token’s', async function () {
    const ids = campaigns.map((c) => c.campaign_id);
    const expected = await q<{ campaign_id: string; unclaimed: string }>(
      `WITH claimed AS (SELECT recipient, token, sum(amount) AS claimed FROM claims WHERE chain_id = $1 GROUP BY 1, 2)
       SELECT lower(b.campaign_id) AS campaign_id,
         sum(CASE WHEN l.amount = 0 THEN 0 ELSE trunc(b.amount * greatest(l.amount - coalesce(k.claimed, 0), 0) / l.amount) END)::text AS unclaimed
       FROM reward_breakdowns b JOIN rewards l USING (chain_id, root, recipient, token) LEFT JOIN claimed k USING (recipient, token)
       WHERE b.chain_id = $1 AND b.root = $2 GROUP BY 1`,
      [CHAIN, live],
    );
    const res = await get(`/v4/rewards/unclaim?chainId=${CHAIN}&campaignIds=${ids.join(',')}`).expect(200);
    expect(res.body).to.deep.equal(Object.fromEntries(expected.map((e) => [e.campaign_id, e.unclaimed])));
    expect(
      Object.values(res.body).some((v) => v !== '0'),
      'something is unclaimed',
    ).to.equal(true);
    const token = campaigns[0]!.token;
    const [t] = await q<{ left: string }>(
      `SELECT ((SELECT sum(amount) FROM rewards WHERE chain_id = $1 AND root = $2 AND token = $3)
         - (SELECT coalesce(sum(amount), 0) FROM claims WHERE chain_id = $1 AND token = $3))::text AS left`,
      [CHAIN, live, token],
    );
    expect((await get(`/v4/rewards/unclaim?chainId=${CHAIN}&token=${token}`).expect(200)).body).to.deep.equal({
      [token]: t!.left,
    });
  });

  it('answers what the live roots distributed, in USD at each root’s day, over a window, by chain, type, protocol, token and month', async function () {
    // A daily close for each reward token the day before the first root: what each root is valued at.
    await priceRewardTokensBeforeFirstRoot(demo.h, CHAIN);
    // Per root up to the live one (not revoked, verified): campaign sums minus the previous root's.
    const perCampaign = await q<{ campaign_id: string; token: string; ts: string; delta: string; decimals: number }>(
      `WITH counted AS (
         SELECT r.root, r.timestamp, lag(r.root) OVER (ORDER BY r.block_number, r.log_index) AS prev,
           (r.block_number, r.log_index) <= (SELECT l.block_number, l.log_index FROM roots l WHERE l.chain_id = $1 AND l.root = $2 AND NOT l.revoked
             ORDER BY l.block_number DESC LIMIT 1) AS upto
         FROM roots r JOIN reward_trees t ON t.chain_id = r.chain_id AND t.root = r.root AND t.status = 'verified'
         WHERE r.chain_id = $1 AND NOT r.revoked),
       sums AS (SELECT root, campaign_id, token, sum(amount) AS amount FROM reward_breakdowns WHERE chain_id = $1 GROUP BY 1, 2, 3)
       SELECT lower(n.campaign_id) AS campaign_id, n.token, c.timestamp::text AS ts,
         (n.amount - coalesce(o.amount, 0))::text AS delta, tk.decimals
       FROM counted c JOIN sums n ON n.root = c.root LEFT JOIN sums o ON o.root = c.prev AND o.campaign_id = n.campaign_id AND o.token = n.token
       JOIN tokens tk ON tk.chain_id = $1 AND lower(tk.address) = n.token
       WHERE c.upto AND n.amount <> coalesce(o.amount, 0)`,
      [CHAIN, live],
    );
    expect(perCampaign.length).to.be.greaterThan(0);
    const visibleIds = new Set(
      (await get('/v4/campaigns?items=100&test=false').expect(200)).body.map((c: { campaignId: string }) =>
        c.campaignId.toLowerCase(),
      ),
    );
    const counted = perCampaign.filter((r) => visibleIds.has(r.campaign_id));
    const usdOf = (rows: typeof perCampaign) =>
      rows.reduce((s, r) => s + (Number(r.delta) / 10 ** r.decimals) * 2.5, 0);
    const total = (await get('/v4/rewards/total/distributed').expect(200)).body;
    expect(total).to.be.closeTo(usdOf(counted), 1e-6 * Math.max(1, usdOf(counted)));
    expect((await get('/v4/rewards/total/distributed/by-chains/').expect(200)).body).to.have.keys([String(CHAIN)]);
    for (const group of ['types', 'protocols']) {
      const by = (await get(`/v4/rewards/total/distributed/by-${group}`).expect(200)).body as Record<string, number>;
      expect(Object.values(by).reduce((a, b) => a + b, 0)).to.be.closeTo(total, 1e-6 * Math.max(1, total));
    }
    // One campaign through the campaign filters, in units per token.
    const one = counted[0]!;
    const units = counted.filter((r) => r.campaign_id === one.campaign_id).reduce((s, r) => s + BigInt(r.delta), 0n);
    const byToken = (await get(`/v4/rewards/total/distributed/by-tokens?campaignId=${one.campaign_id}`).expect(200))
      .body;
    expect(byToken.map((t: { address: string; amount: string }) => [t.address, t.amount])).to.deep.equal([
      [one.token, units.toString()],
    ]);
    // A window after every root distributes nothing; months sum to the total.
    expect((await get('/v4/rewards/total/distributed?from=2999-01-01').expect(200)).body).to.equal(0);
    const months = (await get('/v4/rewards/total/distributed?grain=month').expect(200)).body as Record<string, number>;
    for (const m of Object.keys(months)) expect(m).to.match(/^\d{4}-\d{2}$/);
    expect(Object.values(months).reduce((a, b) => a + b, 0)).to.be.closeTo(total, 1e-6 * Math.max(1, total));
    const stacked = (await get('/v4/rewards/total/distributed/by-chains?grain=month').expect(200)).body;
    expect(Object.keys(stacked)).to.deep.equal(Object.keys(months));
  });

  it('counts a private campaign only for callers who may see it', async function () {
    const listed = new Set(
      (await get('/v4/campaigns?items=100').expect(200)).body.map((x: { campaignId: string }) =>
        x.campaignId.toLowerCase(),
      ),
    );
    const c = campaigns.find((x) => listed.has(x.campaign_id))!;
    const [amounts] = await q<{ campaign: string; token: string }>(
      `SELECT (SELECT sum(amount) FROM reward_breakdowns WHERE chain_id = $1 AND root = $2 AND lower(campaign_id) = $3)::text AS campaign,
         (SELECT sum(amount) FROM rewards WHERE chain_id = $1 AND root = $2 AND token = $4)::text AS token`,
      [CHAIN, live, c.campaign_id, c.token],
    );
    const distributedOf = async (headers: Record<string, string>) =>
      (
        await get(
          `/v4/rewards/total/distributed/by-tokens?campaignId=${c.campaign_id}&showPrivate=true`,
          headers,
        ).expect(200)
      ).body;
    const before = await distributedOf({});
    expect(before.length).to.equal(1);
    await demo.h
      .request()
      .patch(`/v4/campaigns/${c.id}/privacy`)
      .set(as(c.creator))
      .send({ isPrivate: true, recipientsCanView: false })
      .expect(200);
    try {
      const stranger = as(`0x${'77'.repeat(20)}`);
      await get(`/v4/rewards/total?chainId=${CHAIN}&campaignId=${c.campaign_id}`, stranger).expect(404);
      await get(`/v4/rewards/count?chainId=${CHAIN}&campaignId=${c.campaign_id}`).expect(404);
      expect(
        (await get(`/v4/rewards/unclaim?chainId=${CHAIN}&campaignIds=${c.campaign_id}`).expect(200)).body,
      ).to.deep.equal({});
      const token = (await get(`/v4/rewards/total?chainId=${CHAIN}&token=${c.token}`, stranger).expect(200)).body;
      expect(BigInt(token.amount)).to.equal(BigInt(amounts!.token) - BigInt(amounts!.campaign));
      expect(await distributedOf(stranger)).to.deep.equal([]);
      for (const who of [as(c.creator), { authorization: TEST_BACK_OFFICE_TOKEN }]) {
        const own = await get(`/v4/rewards/total?chainId=${CHAIN}&campaignId=${c.campaign_id}`, who).expect(200);
        expect(own.body.amount).to.equal(amounts!.campaign);
        expect(await distributedOf(who)).to.deep.equal(before);
      }
    } finally {
      await demo.h
        .request()
        .patch(`/v4/campaigns/${c.id}/privacy`)
        .set(as(c.creator))
        .send({ isPrivate: false, recipientsCanView: false })
        .expect(200);
    }
  });

  it('summarizes a wallet’s earned, claimed and claimable per chain and token without proofs', async function () {
    const [recipient] = await q<{ recipient: string }>(
      `SELECT l.recipient FROM rewards l WHERE l.chain_id = $1 AND l.root = $2
       AND EXISTS (SELECT 1 FROM claims k WHERE k.chain_id = $1 AND k.recipient = l.recipient) ORDER BY 1 LIMIT 1`,
      [CHAIN, live],
    );
    const expected = await q<{
      address: string;
      earned: string;
      claimed: string;
      price: number | null;
      decimals: number;
    }>(
      `SELECT l.token AS address, l.amount::text AS earned,
         (SELECT coalesce(sum(k.amount), 0) FROM claims k WHERE k.chain_id = $1 AND k.recipient = l.recipient AND k.token = l.token)::text AS claimed,
         p.price, tk.decimals
       FROM rewards l LEFT JOIN tokens tk ON tk.chain_id = $1 AND lower(tk.address) = l.token LEFT JOIN token_prices p ON p.token_id = tk.id
       WHERE l.chain_id = $1 AND l.root = $2 AND l.recipient = $3 ORDER BY 1`,
      [CHAIN, live, recipient!.recipient],
    );
    const res = await get(`/v4/users/${recipient!.recipient}/rewards/summary?chainId=${CHAIN}`).expect(200);
    expect(res.body).to.have.length(1);
    expect(res.body[0].root).to.equal(live);
    expect(
      res.body[0].tokens.map((t: Record<string, unknown>) => [t['address'], t['earned'], t['claimed'], t['claimable']]),
    ).to.deep.equal(
      expected.map((e) => {
        const left = BigInt(e.earned) - BigInt(e.claimed);
        return [e.address, e.earned, e.claimed, (left > 0n ? left : 0n).toString()];
      }),
    );
    const priced = res.body[0].tokens.find((t: { price: number | null }) => t.price !== null);
    if (priced)
      expect(priced.earnedUsd).to.be.closeTo((Number(priced.earned) / 10 ** priced.decimals) * priced.price, 1e-9);
    expect(JSON.stringify(res.body)).to.not.include('proof');
  });
});
