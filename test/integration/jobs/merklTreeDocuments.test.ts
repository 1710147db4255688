import { expect } from 'chai';
import { type Address, getAddress, type Hex, keccak256, parseUnits, toHex } from 'viem';
import { claim, mintTokens, updateTree, type ActionTarget } from '../../../contracts/actions.js';
import { testErc20Abi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import { UNKNOWN_FORMAT } from '../../../indexer/decode/readTreeDocument.js';
import { getRewardTree } from '../../../indexer/store/rewardTrees.js';
import { runJob } from '../../../jobs/runJob.js';
import { syncRoots } from '../../../jobs/syncRoots.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { buildMerklTree, type MerklRow, type MerklTree, merklLeafKey } from '../../helpers/merklTree.js';
import { startTreeServer, type TreeServer } from '../../helpers/treeServer.js';

const CHAIN_ID = 31337;
/** Recipients as Merkl publishes them: checksummed. */
const recipient = (prefix: string) => getAddress(`0x${prefix.padEnd(40, '7')}`);
const alice = recipient('a11ce');
const bob = recipient('b0b');
const carol = recipient('ca401');
const dave = recipient('da4e');
const campaign = (name: string) => keccak256(toHex(`merkl campaign ${name}`));
const campaignA = campaign('A');
const campaignB = campaign('B');
const campaignC = campaign('C');
const units = (n: number | string) => parseUnits(String(n), 18);

type ServedReward = {
  root: string;
  recipient: string;
  amount: string;
  claimed: string;
  pending: string;
  proofs: Hex[];
  token: { address: string };
  breakdowns: { campaignId: string; reason: string; amount: string }[];
};
type Problem = { type: string; code: string; status: number; chainId: number; root: string; treeStatus: string };

/**
 * Merkl's own tree documents (issue #42): a bare array of expanded leaves, one row per (campaign,
 * recipient, reason). The test builds them with an independent Merkl tree (test/helpers/merklTree.ts),
 * posts the root on the Distributor, lets the roots job read the document from a local tree server,
 * and claims on the Distributor with the proofs GET /v4/users/{address}/rewards serves.
 */
describe('jobs/syncRoots with Merkl tree documents', function () {
  let h: Harness;
  let server: TreeServer;
  let target: ActionTarget;
  let tokenA: Address;
  let tokenB: Address;

  const runRoots = () =>
    runJob(syncRoots, { ...h.deps, config: { ...h.config, rewardTrees: { source: server.urlTemplate } } });
  const rewardsOf = async (user: string) =>
    (
      await h
        .request()
        .get(`/v4/users/${user}/rewards`)
        .query({ chainId: CHAIN_ID, breakdownPage: 0, test: true })
        .expect(200)
    ).body as { rewards: ServedReward[] }[];
  /** Posts `rows`' root live on the Distributor and indexes it; `publish` serves the document first. */
  async function postRoot(rows: MerklRow[], publish = true): Promise<MerklTree> {
    const tree = buildMerklTree(rows);
    if (publish) server.publish(CHAIN_ID, tree.root, JSON.stringify(rows, null, 2));
    await updateTree({ ...target, root: tree.root, mineUntilLive: true });
    expect((await h.runJob('blocks')).status).to.equal('success');
    return tree;
  }
  const row = (
    campaignId: string,
    recipient: string,
    reason: string,
    rewardToken: string,
    amount: bigint,
    extra: Partial<MerklRow> = {},
  ): MerklRow => ({
    campaignId,
    recipient,
    reason,
    rewardToken: getAddress(rewardToken),
    amount: amount.toString(),
    lastProcessedTimestamp: 1_764_000_000,
    ...extra,
  });

  /**
   * Round `k`'s rows (amounts grow with k): alice earns token A in three (campaign, reason) rows, one
   * of them with her address lower-cased, and token B in one; bob earns token A, and token B rows that
   * sum to zero (no leaf); carol earns one unit of token A; dave has only a zero row (nothing).
   */
  const roundRows = (k: number): MerklRow[] => [
    row(campaignA, alice, 'UniswapV3_lp', tokenA, units(100 * k)),
    row(campaignB, bob, 'holder', tokenA, units(30 * k), { auxiliaryData1: 1, auxiliaryData2: 0 }),
    row(campaignB, alice, 'holder', tokenA, units(50 * k)),
    row(campaignA, alice.toLowerCase(), 'swap', tokenA, units(5 * k)),
    row(campaignC, alice, 'holder', tokenB, units(7 * k)),
    row(campaignB, bob, 'holder', tokenB, 0n),
    row(campaignC, bob, 'lend', tokenB, 0n),
    row(campaignB, carol, 'holder', tokenA, BigInt(k)),
    row(campaignC, dave, 'holder', tokenB, 0n),
  ];

  /** The served rewards of `user` equal the independent tree's leaves and the document's rows. */
  async function expectServed(user: Address, tree: MerklTree, rows: MerklRow[]): Promise<ServedReward[]> {
    const [chain] = await rewardsOf(user);
    const expected = [...tree.leaves.values()].filter((l) => l.recipient === user);
    expect(chain!.rewards.map((r) => [r.token.address, r.amount, r.root])).to.have.deep.members(
      expected.map((l) => [l.token.toLowerCase(), l.amount.toString(), tree.root]),
    );
    for (const reward of chain!.rewards) {
      const leaf = tree.leaves.get(merklLeafKey(user, reward.token.address))!;
      expect(reward.proofs, `proof of ${user}/${reward.token.address}`).to.deep.equal(leaf.proof);
      // One breakdown per (campaign, reason) row of the pair, zero rows included, summing to the leaf.
      const mine = rows.filter(
        (r) => merklLeafKey(r.recipient, r.rewardToken) === merklLeafKey(user, reward.token.address),
      );
      expect(reward.breakdowns.map((b) => [b.campaignId, b.reason, b.amount])).to.have.deep.members(
        mine.map((r) => [r.campaignId, r.reason, r.amount]),
      );
    }
    return chain!.rewards;
  }

  async function claimServed(rewards: ServedReward[]) {
    const { publicClient } = createDevnetClients(target);
    const balance = (token: string, user: string) =>
      publicClient.readContract({
        address: token as Address,
        abi: testErc20Abi,
        functionName: 'balanceOf',
        args: [user as Address],
      });
    const before = await Promise.all(rewards.map((r) => balance(r.token.address, r.recipient)));
    // The governor (hardhat #0) claims for the users with exactly the served values.
    const paid = await claim({
      ...target,
      claims: rewards.map((r) => ({
        user: r.recipient as Address,
        token: r.token.address as Address,
        amount: BigInt(r.amount),
        proof: r.proofs,
      })),
    });
    expect(paid.claimed.map((c) => [c.user.toLowerCase(), c.token.toLowerCase(), c.amount])).to.deep.equal(
      rewards.map((r) => [r.recipient, r.token.address, BigInt(r.pending)]),
    );
    const after = await Promise.all(rewards.map((r) => balance(r.token.address, r.recipient)));
    expect(after.map((b, i) => b - before[i]!)).to.deep.equal(rewards.map((r) => BigInt(r.pending)));
    for (const job of ['blocks', 'claims']) expect((await h.runJob(job)).status, job).to.equal('success');
  }

  before(async function () {
    h = await createHarness({ chainIds: [CHAIN_ID] });
    server = await startTreeServer();
    const { devnet, stack } = h.chains[0]!;
    target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    [tokenA, tokenB] = stack.tokens.rewards.map((t) => t.address.toLowerCase() as Address) as [Address, Address];
    for (const token of [tokenA, tokenB])
      await mintTokens({ ...target, token, to: stack.distributor, amount: units(1_000_000) });
  });

  after(async () => {
    await server?.close();
    await h?.close();
  });

  it("reads Merkl's expanded leaves, serves one leaf per (recipient, token) with its rows as breakdowns, and the served proofs claim on the Distributor", async () => {
    const rows = roundRows(1);
    const tree = await postRoot(rows);
    expect(tree.leaves.size, 'alice A and B, bob A, carol A').to.equal(4);
    const run = await runRoots();
    if (run.status !== 'success') expect.fail(`roots ${run.status}`);
    expect(run.result.counts).to.deep.include({ trees_verified: 1, trees_mismatch: 0, rewards: 4 });
    expect(await getRewardTree(h.deps.pg, CHAIN_ID, tree.root)).to.deep.include({
      status: 'verified',
      computedRoot: tree.root,
      leaves: 4,
      error: null,
    });

    const aliceRewards = await expectServed(alice, tree, rows);
    expect(aliceRewards).to.have.length(2);
    expect(aliceRewards.find((r) => r.token.address === tokenA)!.amount).to.equal(units(155).toString());
    // bob's token B rows sum to zero: no leaf, nothing served for it; dave has nothing at all.
    expect((await expectServed(bob, tree, rows)).map((r) => r.token.address)).to.deep.equal([tokenA]);
    expect((await rewardsOf(dave))[0]!.rewards).to.deep.equal([]);
    const carolRewards = await expectServed(carol, tree, rows);
    expect(carolRewards.map((r) => r.amount)).to.deep.equal(['1']);

    await claimServed([...aliceRewards, ...carolRewards]);
    const claimed = (await rewardsOf(alice))[0]!.rewards;
    expect(claimed.map((r) => [r.claimed, r.pending])).to.deep.equal(aliceRewards.map((r) => [r.amount, '0']));
  });

  it('answers reward reads with a 503 REWARD_TREE_UNAVAILABLE and Retry-After while the live root has no stored tree, refuses a document of an unknown format saying so, then serves the next tree', async () => {
    const rows = roundRows(2);
    const tree = await postRoot(rows, false);
    await runRoots();
    expect(await getRewardTree(h.deps.pg, CHAIN_ID, tree.root)).to.deep.include({
      status: 'unavailable',
      error: 'not published',
    });
    const unavailable = async (treeStatus: string) => {
      for (const path of [
        `/v4/users/${alice}/rewards?chainId=${CHAIN_ID}&breakdownPage=0&test=true`,
        `/v4/users/${alice}/rewards/breakdowns?chainIds=${CHAIN_ID}&test=true`,
        `/v4/users/${alice}/rewards/summary?chainId=${CHAIN_ID}`,
      ]) {
        const res = await h.request().get(path).expect(503);
        expect(res.headers['content-type'], path).to.match(/^application\/problem\+json/);
        expect(res.headers['retry-after'], path).to.equal('30');
        expect(res.body as Problem, path).to.deep.include({
          type: '/problems/reward-tree-unavailable',
          code: 'REWARD_TREE_UNAVAILABLE',
          status: 503,
          chainId: CHAIN_ID,
          root: tree.root,
          treeStatus,
        });
      }
      // GraphQL's user.rewards says so too, in the error's extensions.
      const gql = await h
        .request()
        .post('/graphql/v1')
        .set('accept', 'application/graphql-response+json')
        .send({ query: `{ user(address: "${alice}") { rewards(chainId: [${CHAIN_ID}]) { rewards { amount } } } }` });
      const body = JSON.parse(gql.text) as { errors: { extensions: Record<string, unknown> }[] };
      expect(body.errors[0]!.extensions).to.deep.include({
        code: 'REWARD_TREE_UNAVAILABLE',
        root: tree.root,
        treeStatus,
      });
    };
    await unavailable('unavailable');

    // A JSON document of neither format (our entries as a bare array) is refused by what it is.
    const entries = [{ recipient: alice.toLowerCase(), token: tokenA, amount: '1', breakdowns: [] }];
    server.publish(CHAIN_ID, tree.root, JSON.stringify(entries));
    await runRoots();
    expect(await getRewardTree(h.deps.pg, CHAIN_ID, tree.root)).to.deep.include({
      status: 'unavailable',
      error: UNKNOWN_FORMAT,
    });
    expect(UNKNOWN_FORMAT).to.match(/^invalid reward tree: unknown document format \(expected /);
    await unavailable('unavailable');

    server.publish(CHAIN_ID, tree.root, JSON.stringify(rows));
    const run = await runRoots();
    if (run.status !== 'success') expect.fail(`roots ${run.status}`);
    expect(run.result.counts).to.deep.include({ trees_verified: 1, rewards: 4 });
    // Alice claimed round 1: what she may claim now is the growth, and the claim pays exactly that.
    const served = await expectServed(alice, tree, rows);
    expect(served.map((r) => BigInt(r.pending))).to.have.members([units(155), units(7)]);
    await claimServed([...served, ...(await expectServed(bob, tree, rows))]);
  });

  it('records a Merkl document whose sums do not hash to the root as a mismatch, and reads say the tree is unavailable', async () => {
    const rows = roundRows(3);
    const tree = await postRoot(rows, false);
    const tampered = rows.map((r) => (r.recipient === carol ? { ...r, amount: String(BigInt(r.amount) + 1n) } : r));
    server.publish(CHAIN_ID, tree.root, JSON.stringify(tampered));
    const run = await runRoots();
    if (run.status !== 'success') expect.fail(`roots ${run.status}`);
    expect(run.result.counts).to.deep.include({ trees_mismatch: 1, trees_verified: 0 });
    const record = await getRewardTree(h.deps.pg, CHAIN_ID, tree.root);
    expect(record).to.deep.include({ status: 'mismatch', computedRoot: buildMerklTree(tampered).root, leaves: 4 });
    const res = await h
      .request()
      .get(`/v4/users/${carol}/rewards`)
      .query({ chainId: CHAIN_ID, breakdownPage: 0 })
      .expect(503);
    expect(res.body as Problem).to.deep.include({ code: 'REWARD_TREE_UNAVAILABLE', treeStatus: 'mismatch' });
  });
});
