import { expect } from 'chai';
import { parseUnits, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { forgetChainRows } from '../../../api/chainRecords.js';
import {
  claim,
  disputeTree,
  getLatestTimestamp,
  mine,
  resolveDispute,
  setDisputeDeposit,
  setDisputePeriod,
  setNextBlockTimestamp,
  updateTree,
  type ActionTarget,
} from '../../../contracts/actions.js';
import { distributorAbi, testErc20Abi } from '../../../contracts/artifacts/index.js';
import { HARDHAT_TEST_KEYS, createDevnetClients } from '../../../contracts/clients.js';
import { buildRewardTree } from '../../../domain/rewardTree.js';
import type { RewardTreeFile } from '../../../indexer/decode/parseRewardTree.js';
import { runJob } from '../../../jobs/runJob.js';
import { syncRoots } from '../../../jobs/syncRoots.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { startTreeServer, type TreeServer } from '../../helpers/treeServer.js';

const CHAIN_ID = 31337;
const EPOCH = 3600;
const users = HARDHAT_TEST_KEYS.map((k) => privateKeyToAccount(k).address.toLowerCase() as Address);
const [, disputerKey] = HARDHAT_TEST_KEYS;
const campaign = `0x${'c7'.repeat(32)}`;

type ServedReward = {
  root: string;
  recipient: string;
  amount: string;
  pending: string;
  proofs: Hex[];
  token: { address: string };
};

/**
 * The dispute lifecycle of the real Distributor (docs/contracts.md#distributor-functions and #dispute-period-and-the-live-root) end to end: stand-in
 * contract → blocks, roots and claims jobs → API. After every step the root the API serves (with
 * its proofs) is the one `getMerkleRoot()` returns at the indexed block, /v4/chains serves the
 * contract's `endOfDisputePeriod`, and a claim with the served proof succeeds on chain paying
 * exactly the served `pending`.
 */
describe('dispute lifecycle: served root, proofs and endOfDisputePeriod follow the Distributor', function () {
  let h: Harness;
  let server: TreeServer;
  let target: ActionTarget;
  let token: Address;
  let round = 0;
  /** Claim tx → the root served (and verified on chain) when it was sent. */
  const servedAtClaim = new Map<string, string>();

  const read = async <F extends 'getMerkleRoot' | 'endOfDisputePeriod'>(functionName: F, blockNumber: bigint) =>
    createDevnetClients(target).publicClient.readContract({
      address: target.stack.distributor,
      abi: distributorAbi,
      functionName,
      blockNumber,
    });

  /** A tree where every user's cumulative amount grew, published on the tree server. */
  function makeTree(): RewardTreeFile {
    round += 1;
    const amounts = users.map((_, i) => parseUnits(String(round * 10 + i), 18));
    const { root } = buildRewardTree(users.map((user, i) => ({ user, token, amount: amounts[i]! })));
    const file: RewardTreeFile = {
      root,
      chainId: CHAIN_ID,
      rewards: users.map((recipient, i) => ({
        recipient,
        token,
        amount: amounts[i]!.toString(),
        breakdowns: [{ campaignId: campaign, reason: 'holder', amount: amounts[i]!.toString() }],
      })),
    };
    server.publish(CHAIN_ID, root, file);
    return file;
  }

  /** Indexes up to the chain head, then returns the head block number. */
  async function index(): Promise<bigint> {
    const head = await createDevnetClients(target).publicClient.getBlockNumber();
    for (const job of ['blocks', 'claims']) expect((await h.runJob(job)).status, job).to.equal('success');
    expect(
      (await runJob(syncRoots, { ...h.deps, config: { ...h.config, rewardTrees: { source: server.urlTemplate } } }))
        .status,
    ).to.equal('success');
    return head;
  }

  /**
   * The invariant after each step: served root = getMerkleRoot() at the indexed block, served
   * endOfDisputePeriod = the contract's, and `user` claims with the served proof for exactly `pending`.
   * @returns the served root.
   */
  async function expectServedLikeChain(user: Address, step: string): Promise<string> {
    const head = await index();
    const onchain = (await read('getMerkleRoot', head)).toLowerCase();
    const res = await h
      .request()
      .get(`/v4/users/${user}/rewards`)
      .query({ chainId: CHAIN_ID, breakdownPage: 0, test: true })
      .expect(200);
    const reward = (res.body as { rewards: ServedReward[] }[])[0]!.rewards[0]!;
    expect(reward.root, `${step}: served root`).to.equal(onchain);
    forgetChainRows(h.apiPg);
    const chains = (await h.request().get('/v4/chains').query({ test: true }).expect(200)).body as {
      id: number;
      endOfDisputePeriod: number;
    }[];
    expect(
      chains.find((c) => c.id === CHAIN_ID)?.endOfDisputePeriod,
      `${step}: /v4/chains endOfDisputePeriod`,
    ).to.equal(Number(await read('endOfDisputePeriod', head)));

    const paid = await claim({
      ...target,
      claims: [{ user, token, amount: BigInt(reward.amount), proof: reward.proofs }],
    });
    servedAtClaim.set(paid.txHash.toLowerCase(), reward.root);
    expect(
      paid.claimed.map((c) => [c.user.toLowerCase(), c.token.toLowerCase(), c.amount]),
      `${step}: claim with the served proof`,
    ).to.deep.equal([[user, token, BigInt(reward.pending)]]);
    return reward.root;
  }

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [CHAIN_ID] });
    server = await startTreeServer();
    const { devnet, stack } = h.chains[0]!;
    target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    token = stack.tokens.rewards[0]!.address.toLowerCase() as Address;
    const clients = createDevnetClients(target);
    const send = async (hash: Promise<Hex>) => clients.publicClient.waitForTransactionReceipt({ hash: await hash });
    await send(
      clients.walletClient.writeContract({
        address: token,
        abi: testErc20Abi,
        functionName: 'mint',
        args: [stack.distributor, parseUnits('1000000', 18)],
      }),
    );
    await send(
      clients.walletClient.writeContract({
        address: token,
        abi: testErc20Abi,
        functionName: 'mint',
        args: [privateKeyToAccount(disputerKey!).address, parseUnits('1000', 18)],
      }),
    );
    const disputer = createDevnetClients({ ...target, privateKey: disputerKey });
    await send(
      disputer.walletClient.writeContract({
        address: token,
        abi: testErc20Abi,
        functionName: 'approve',
        args: [stack.distributor, 2n ** 255n],
      }),
    );
    await setDisputeDeposit({ ...target, token, amount: parseUnits('100', 18) });
    await setDisputePeriod({ ...target, disputePeriod: 1 });
  });

  after(async () => {
    await server?.close();
    await h?.close();
  });

  it('a live root: served, and claimable with the served proof', async () => {
    const t1 = makeTree();
    await updateTree({ ...target, root: t1.root, mineUntilLive: true });
    expect(await expectServedLikeChain(users[0]!, 'live')).to.equal(t1.root);
  });

  it('dispute open: the previous root stays served even past the period; resolved valid: revoked, the previous root live at once', async () => {
    const live = await expectServedLikeChain(users[1]!, 'before');
    const t2 = makeTree();
    const u2 = await updateTree({ ...target, root: t2.root });
    expect(await expectServedLikeChain(users[2]!, 'pending')).to.equal(live);
    await disputeTree({ ...target, privateKey: disputerKey, reason: 'amounts too high' });
    await mine({ rpcUrl: target.rpcUrl, timestamp: u2.endOfDisputePeriod + 60 });
    expect(await expectServedLikeChain(users[0]!, 'dispute open past the period')).to.equal(live);
    await resolveDispute({ ...target, valid: true });
    expect(await expectServedLikeChain(users[1]!, 'resolved valid')).to.equal(live);
    const { rows } = await h.deps.pg.query('SELECT revoked FROM roots WHERE chain_id = $1 AND root = $2', [
      CHAIN_ID,
      t2.root,
    ]);
    expect(rows).to.deep.equal([{ revoked: true }]);
  });

  it('resolved invalid: no TreeUpdated, the disputed root is live only from the end recomputed at the resolution', async () => {
    const live = await expectServedLikeChain(users[2]!, 'before');
    const t3 = makeTree();
    const u3 = await updateTree({ ...target, root: t3.root });
    await disputeTree({ ...target, privateKey: disputerKey, reason: 'frivolous' });
    // Resolved after the TreeUpdated's own end: the period restarts from here (docs/contracts.md#dispute-period-and-the-live-root).
    const resolvedAt = u3.endOfDisputePeriod + 2 * EPOCH + 30;
    await setNextBlockTimestamp({ rpcUrl: target.rpcUrl, timestamp: resolvedAt });
    const resolved = await resolveDispute({ ...target, valid: false });
    const newEnd = (Math.floor((resolvedAt - 1) / EPOCH) + 2) * EPOCH;
    expect(Number(await read('endOfDisputePeriod', resolved.blockNumber))).to.equal(newEnd);
    expect(await expectServedLikeChain(users[0]!, 'resolved invalid, before the recomputed end')).to.equal(live);
    const { rows } = await h.deps.pg.query(
      `SELECT valid, end_of_dispute_period::int AS end FROM distributor_events WHERE chain_id = $1 AND kind = 'dispute_resolved' ORDER BY block_number`,
      [CHAIN_ID],
    );
    expect(rows).to.deep.equal([
      { valid: true, end: null },
      { valid: false, end: newEnd },
    ]);

    await mine({ rpcUrl: target.rpcUrl, timestamp: newEnd - 5 });
    expect(await expectServedLikeChain(users[1]!, 'one block before the recomputed end')).to.equal(live);
    await mine({ rpcUrl: target.rpcUrl, timestamp: newEnd });
    expect(await expectServedLikeChain(users[2]!, 'at the recomputed end')).to.equal(t3.root);
    expect(await getLatestTimestamp(target)).to.be.greaterThan(newEnd);
  });

  it('attributes every claim of the lifecycle to the root it was verified against (GET /v4/claims)', async () => {
    expect(servedAtClaim.size, 'one claim per lifecycle step').to.equal(9);
    await index();
    const served = (await h.request().get('/v4/claims').query({ chainId: CHAIN_ID, items: 100 }).expect(200)).body as {
      root: string | null;
      metadata: { txHash: string };
    }[];
    const ours = served.filter((c) => servedAtClaim.has(c.metadata.txHash));
    expect(ours).to.have.length(servedAtClaim.size);
    expect(ours.map((c) => [c.metadata.txHash, c.root])).to.deep.equal(
      ours.map((c) => [c.metadata.txHash, servedAtClaim.get(c.metadata.txHash)]),
    );
  });
});
