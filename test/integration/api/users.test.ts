import { expect } from 'chai';
import type Koa from 'koa';
import supertest from 'supertest';
import type { Address, Hex } from 'viem';
import { startApiServer } from '../../../api/server.js';
import { createLogger } from '../../../internal/logger.js';
import { claim } from '../../../contracts/actions.js';
import { distributorAbi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import { getLatestTimestamp } from '../../../contracts/time.js';
import { createReferenceDemo, type ReferenceDemo } from './referenceDemo.js';

type Reward = {
  root: string;
  recipient: string;
  proofs: Hex[];
  token: { address: string; chainId: number; symbol: string; decimals: number };
  amount: string;
  claimed: string;
  pending: string;
  breakdowns: {
    reason: string;
    amount: string;
    claimed: string;
    pending: string;
    campaignId: string;
    campaignStatus?: string;
  }[];
};
type ChainRewards = { chain: { id: number }; rewards: Reward[] };

const CHAIN_ID = 31337;
/** Demo recipients #7 (never claimed) and #6 (claimed against root 2, then its amount grew in root 3). */
const UNCLAIMED = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';
const PARTLY_CLAIMED = '0x976ea74026e726554db657fa54763abd0c3a0aa9';
const STRANGER = '0x000000000000000000000000000000000000dead';

describe('GET /v4/users/{address}/rewards on the seeded demo', function () {
  let demo: ReferenceDemo;
  let app: Koa;
  let chainNow: number;
  const request = () => supertest(app.callback());
  const rewardsOf = async (address: string, query: Record<string, unknown> = {}) =>
    (
      await request()
        .get(`/v4/users/${address}/rewards`)
        .query({ chainId: CHAIN_ID, breakdownPage: 0, ...query })
        .expect(200)
    ).body as ChainRewards[];

  before(async function () {
    this.timeout(600_000);
    demo = await createReferenceDemo();
    const { devnet } = demo.h.chains[0]!;
    chainNow = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    // The API's clock is the devnet's, so its live root is the one Distributor.claim verifies against.
    app = demo.h.createApp({
      now: () => chainNow,
    });
  });

  after(async () => demo?.close());

  it("serves the live root's leaf with proofs that the Distributor accepts, and claimed/pending follow the claims job", async function () {
    const { devnet, stack } = demo.h.chains[0]!;
    const target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    const onchainRoot = await createDevnetClients(target).publicClient.readContract({
      address: stack.distributor,
      abi: distributorAbi,
      functionName: 'getMerkleRoot',
    });
    const [entry] = await rewardsOf(PARTLY_CLAIMED);
    expect(entry!.chain.id).to.equal(CHAIN_ID);
    expect(entry!.rewards).to.have.length(1);
    const reward = entry!.rewards[0]!;
    expect(reward.root).to.equal(onchainRoot.toLowerCase());
    expect(reward.recipient).to.equal(PARTLY_CLAIMED);
    expect(BigInt(reward.claimed) > 0n, 'claimed against root 2').to.equal(true);
    expect(BigInt(reward.pending) > 0n, 'pending').to.equal(true);
    expect(BigInt(reward.amount) - BigInt(reward.claimed)).to.equal(BigInt(reward.pending));
    expect(reward.breakdowns.reduce((s, b) => s + BigInt(b.amount), 0n)).to.equal(BigInt(reward.amount));
    expect(reward.token).to.include({ chainId: CHAIN_ID, symbol: 'RWD', decimals: 18 });

    // The governor (hardhat #0) claims for the user with exactly the served values.
    const paid = await claim({
      ...target,
      claims: [
        {
          user: reward.recipient as Address,
          token: reward.token.address as Address,
          amount: BigInt(reward.amount),
          proof: reward.proofs,
        },
      ],
    });
    expect(paid.claimed.map((c) => c.amount)).to.deep.equal([BigInt(reward.pending)]);

    for (const job of ['blocks', 'claims']) expect((await demo.h.runJob(job)).status).to.equal('success');
    const after = (await rewardsOf(PARTLY_CLAIMED))[0]!.rewards[0]!;
    expect(after.claimed).to.equal(reward.amount);
    expect(BigInt(after.claimed) > BigInt(reward.claimed), 'claimed increased').to.equal(true);
    expect(after.pending).to.equal('0');
    expect(after.breakdowns.every((b) => b.pending === '0' && b.claimed === b.amount)).to.equal(true);
    expect((await rewardsOf(PARTLY_CLAIMED, { claimableOnly: true }))[0]!.rewards).to.deep.equal([]);
    expect((await rewardsOf(UNCLAIMED, { claimableOnly: true }))[0]!.rewards).to.have.length(1);
  });

  it('answers proofs from stored proof material only: the claimable roots have it, older ones keep amounts; without it a 503, and the roots job rebuilds the same proofs', async function () {
    const pg = demo.h.deps.pg;
    const served = (await rewardsOf(UNCLAIMED))[0]!.rewards;
    expect(served).to.have.length.greaterThan(0);
    const { rows: trees } = await pg.query<{ root: string; material: boolean; rewards: number; claimable: boolean }>(
      `SELECT t.root, t.top_layers IS NOT NULL AS material,
         (SELECT count(*)::int FROM rewards w WHERE w.chain_id = t.chain_id AND w.root = t.root) AS rewards,
         t.root IN (SELECT r.root FROM roots r WHERE r.chain_id = t.chain_id AND NOT r.revoked ORDER BY r.block_number DESC, r.log_index DESC LIMIT 2) AS claimable
       FROM reward_trees t WHERE t.chain_id = $1 AND t.status = 'verified'`,
      [CHAIN_ID],
    );
    expect(trees.length, 'the demo has older verified roots than the claimable two').to.be.greaterThan(2);
    for (const t of trees) {
      expect(t.material, `proof material of ${t.root}`).to.equal(t.claimable);
      expect(t.rewards, `amounts of ${t.root}`).to.be.greaterThan(0);
    }
    await pg.query('UPDATE reward_trees SET top_layers = NULL, chunk_leaves = NULL WHERE chain_id = $1', [CHAIN_ID]);
    await pg.query('DELETE FROM reward_tree_chunks WHERE chain_id = $1', [CHAIN_ID]);
    const missing = await request()
      .get(`/v4/users/${UNCLAIMED}/rewards`)
      .query({ chainId: CHAIN_ID, breakdownPage: 0 })
      .expect(503);
    expect(missing.headers['content-type']).to.match(/problem\+json/);
    const run = await demo.h.runJob('roots');
    if (run.status !== 'success') expect.fail(`roots job ${run.status}`);
    expect(run.result.counts).to.deep.include({ proof_material_rebuilt: 2 });
    expect((await rewardsOf(UNCLAIMED))[0]!.rewards).to.deep.equal(served);
  });
  it('gives every breakdown its campaign status and pages breakdowns with breakdownPage', async () => {
    const reward = (await rewardsOf(UNCLAIMED))[0]!.rewards[0]!;
    expect(reward.breakdowns.length).to.be.greaterThan(0);
    for (const b of reward.breakdowns) expect(b.campaignStatus).to.be.oneOf(['LIVE', 'PAST', 'SOON']);
    expect((await rewardsOf(UNCLAIMED, { breakdownPage: 1 }))[0]!.rewards[0]!.breakdowns).to.deep.equal([]);
  });

  it('returns no rewards for an address without a leaf, and filters on token type', async () => {
    expect((await rewardsOf(STRANGER))[0]!.rewards).to.deep.equal([]);
    expect((await rewardsOf(UNCLAIMED, { type: 'POINT' }))[0]!.rewards).to.deep.equal([]);
    expect((await rewardsOf(UNCLAIMED, { type: 'TOKEN' }))[0]!.rewards).to.have.length(1);
  });

  it('serves the path with a trailing slash and a checksummed address', async () => {
    const res = await request()
      .get(`/v4/users/${UNCLAIMED.replace('0x14dc', '0x14Dc')}/rewards/`)
      .query({ chainId: String(CHAIN_ID), breakdownPage: 0 })
      .expect(200);
    expect(res.body[0].rewards[0].recipient).to.equal(UNCLAIMED);
  });

  const bad = async (path: string, query: Record<string, unknown>, field: string) => {
    const res = await request().get(path).query(query).expect(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).to.include(field);
  };

  it('rejects a malformed address, chainId and breakdownPage, naming the field', async () => {
    const path = `/v4/users/${UNCLAIMED}/rewards`;
    await bad('/v4/users/0x123/rewards', { chainId: CHAIN_ID, breakdownPage: 0 }, 'address');
    await bad(path, { breakdownPage: 0 }, 'chainId');
    await bad(path, { chainId: 'abc', breakdownPage: 0 }, 'chainId.0');
    await bad(path, { chainId: 424242, breakdownPage: 0 }, 'chainId');
    await bad(path, { chainId: CHAIN_ID }, 'breakdownPage');
    await bad(path, { chainId: CHAIN_ID, breakdownPage: -1 }, 'breakdownPage');
    await bad(path, { chainId: CHAIN_ID, breakdownPage: 0, type: 'NFT' }, 'type');
    await bad(path, { chainId: CHAIN_ID, breakdownPage: 0, claimableOnly: 'maybe' }, 'claimableOnly');
  });

  describe('/rewards/breakdowns (grouped by opportunity)', () => {
    type Group = {
      opportunityId: string | null;
      opportunity: { id: string } | null;
      amount: string;
      claimed: string;
      pending: string;
    };
    type Leaf = {
      root: string;
      distributionChainId: number;
      recipient: string;
      amount: string;
      claimed: string;
      pending: string;
      breakdowns: Group[];
    };

    it('groups the live leaf by opportunity: amounts sum to the leaf, each group carries its Opportunity', async () => {
      const [perCampaign] = await rewardsOf(UNCLAIMED);
      const res = await request()
        .get(`/v4/users/${UNCLAIMED}/rewards/breakdowns`)
        .query({ chainIds: CHAIN_ID })
        .expect(200);
      expect(res.body).to.have.length(1);
      expect(res.body[0].chain.id).to.equal(CHAIN_ID);
      expect(res.body[0].distributor).to.equal(demo.h.chains[0]!.stack.distributor.toLowerCase());
      const leaf = res.body[0].rewards[0] as Leaf;
      const reward = perCampaign!.rewards[0]!;
      expect(leaf).to.include({
        root: reward.root,
        distributionChainId: CHAIN_ID,
        recipient: UNCLAIMED,
        amount: reward.amount,
        pending: reward.pending,
      });
      expect(leaf.breakdowns.reduce((s, g) => s + BigInt(g.amount), 0n)).to.equal(BigInt(leaf.amount));
      expect(leaf.breakdowns.reduce((s, g) => s + BigInt(g.pending), 0n)).to.equal(BigInt(leaf.pending));
      // Fewer groups than campaign breakdowns only if campaigns share an opportunity; every known one is attached.
      expect(leaf.breakdowns.length).to.be.at.most(reward.breakdowns.length).and.greaterThan(0);
      for (const g of leaf.breakdowns.filter((b) => b.opportunityId))
        expect(g.opportunity?.id).to.equal(g.opportunityId);
      const ids = (
        await request()
          .get(`/v4/opportunities/${leaf.breakdowns[0]!.opportunityId}/campaigns?campaigns=true&test=true`)
          .expect(200)
      ).body.campaigns.map((c: { campaignId: string }) => c.campaignId.toLowerCase());
      expect(
        reward.breakdowns.some((b) => ids.includes(b.campaignId.toLowerCase())),
        'the group holds campaigns of that opportunity',
      ).to.equal(true);
    });

    it('defaults to every configured chain, filters claimable leaves and refuses unknown chains', async () => {
      const all = await request().get(`/v4/users/${STRANGER}/rewards/breakdowns/`).expect(200);
      expect(all.body.map((c: { chain: { id: number } | null; rewards: unknown[] }) => c.rewards)).to.deep.equal(
        demo.h.config.chains.map(() => []),
      );
      const claimable = await request()
        .get(`/v4/users/${PARTLY_CLAIMED}/rewards/breakdowns`)
        .query({ chainIds: CHAIN_ID, claimableOnly: 'true' })
        .expect(200);
      for (const leaf of claimable.body[0].rewards as Leaf[]) expect(BigInt(leaf.pending) > 0n).to.equal(true);
      await bad(`/v4/users/${UNCLAIMED}/rewards/breakdowns`, { chainIds: 424242 }, 'chainIds');
      await bad(`/v4/users/${UNCLAIMED}/rewards/breakdowns`, { nope: 1 }, 'nope');
    });
  });

  it('is warmed by a fresh API process before it reports up: one read per chain, connections open (api/warmUp.ts)', async function () {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({
      level: 'info',
      name: 'warm-up',
      destination: { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) },
    });
    const api = await startApiServer({ config: { ...demo.h.config, host: '127.0.0.1', port: 0 }, logger });
    try {
      const reads = lines.filter(
        (l) => l['msg'] === 'request' && /^\/v4\/users\/0x[0-9a-f]{40}\/rewards$/.test(String(l['path'])),
      );
      expect(reads.map((l) => l['status'])).to.deep.equal(demo.h.config.chains.map(() => 200));
      // The demo chain's read is for a recipient of its latest tree (so its proofs ran), not a made-up address.
      const [{ recipient }] = (
        await demo.h.apiPg.query<{ recipient: string }>(
          'SELECT recipient FROM reward_leaf_versions WHERE chain_id = $1 AND until_seq IS NULL LIMIT 1',
          [CHAIN_ID],
        )
      ).rows as [{ recipient: string }];
      expect(reads.map((l) => l['path'])).to.include(`/v4/users/${recipient}/rewards`);
      const warmed = lines.find((l) => l['msg'] === 'api warmed up');
      expect(warmed, 'warm-up logged').to.deep.include({
        chains: demo.h.config.chains.length,
        of: demo.h.config.chains.length,
      });
      expect(lines.filter((l) => l['msg'] === 'api warm-up read failed')).to.deep.equal([]);
      const open = await demo.h.apiPg.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'rewards-api' AND datname = current_database()",
      );
      expect(open.rows[0]!.n, 'read connections kept open').to.be.at.least(6);
      const [entry] = (
        await supertest(api.url)
          .get(`/v4/users/${UNCLAIMED}/rewards`)
          .query({ chainId: CHAIN_ID, breakdownPage: 0 })
          .expect(200)
      ).body as ChainRewards[];
      expect(entry!.chain.id).to.equal(CHAIN_ID);
    } finally {
      await api.close();
    }
  });
});
