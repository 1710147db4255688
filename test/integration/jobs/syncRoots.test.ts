import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keccak256, toHex } from 'viem';
import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANCHOR_BUCKET } from '../../../indexer/store/rewardAnchors.js';
import { pino } from 'pino';
import {
  getLatestTimestamp,
  mine,
  revert,
  snapshot,
  updateTree,
  type ActionTarget,
} from '../../../contracts/actions.js';
import { distributorAbi } from '../../../contracts/artifacts/index.js';
import { HARDHAT_TEST_KEYS, createDevnetClients } from '../../../contracts/clients.js';
import { buildRewardTree } from '../../../domain/rewardTree.js';
import type { RewardTreeFile } from '../../../indexer/decode/parseRewardTree.js';
import { writeRewardTree } from '../../../contracts/rewardTrees/writeRewardTree.js';
import { createChainClients } from '../../../internal/rpc.js';
import { getCursor } from '../../../indexer/store/cursor.js';
import { getRewardTree } from '../../../indexer/store/rewardTrees.js';
import { loadRewards } from '../../../api/reads/rewards.js';
import { listRoots, loadLiveRoot } from '../../../api/reads/roots.js';
import { runJob } from '../../../jobs/runJob.js';
import { syncRoots } from '../../../jobs/syncRoots.js';
import type { JobDeps } from '../../../domain/jobs/types.js';
import { startFlakyRpcProxy } from '../../helpers/flakyRpcProxy.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { startTreeServer, type TreeServer } from '../../helpers/treeServer.js';

const CHAIN_ID = 31337;
const users = HARDHAT_TEST_KEYS.map((k) => privateKeyToAccount(k).address.toLowerCase() as Address);
const campaignA = keccak256(toHex('campaign A'));
const campaignB = keccak256(toHex('campaign B'));

type Split = { campaignId: string; reason: string; amount: bigint };

describe('jobs/syncRoots', function () {
  let h: Harness;
  let server: TreeServer;
  let dir: string;
  let target: ActionTarget;
  let token: Address;
  let round = 0;

  const depsWith = (source: string, extra: Partial<JobDeps> = {}): JobDeps => ({
    ...h.deps,
    ...extra,
    config: { ...h.config, rewardTrees: { source } },
  });
  const runRoots = (source = server.urlTemplate) => runJob(syncRoots, depsWith(source));
  const readDistributor = (functionName: 'endOfDisputePeriod' | 'getMerkleRoot') =>
    createDevnetClients(target).publicClient.readContract({
      address: target.stack.distributor,
      abi: distributorAbi,
      functionName,
    });
  const chainEndOfDispute = async () =>
    Number(
      (await h.deps.pg.query('SELECT end_of_dispute_period FROM chains WHERE id = $1', [CHAIN_ID])).rows[0]
        .end_of_dispute_period,
    );
  const lastRun = async () =>
    (await h.deps.pg.query(`SELECT status, counts, error FROM job_runs WHERE job = 'roots' ORDER BY id DESC LIMIT 1`))
      .rows[0];

  /** A tree of the devnet's reward token: each user earns the sum of their splits (new amounts each round). */
  function makeTree(): { file: RewardTreeFile; splits: Split[][] } {
    round += 1;
    const splits: Split[][] = users.map((_, i) => [
      { campaignId: campaignA, reason: 'holder', amount: 10n ** 18n * BigInt(round * 10 + i) },
      { campaignId: campaignB, reason: `lp-${i}`, amount: 10n ** 15n * BigInt(round + i + 1) },
    ]);
    const amounts = splits.map((s) => s.reduce((sum, b) => sum + b.amount, 0n));
    const { root } = buildRewardTree(users.map((user, i) => ({ user, token, amount: amounts[i]! })));
    const file: RewardTreeFile = {
      root,
      chainId: CHAIN_ID,
      rewards: users.map((recipient, i) => ({
        recipient,
        token,
        amount: amounts[i]!.toString(),
        breakdowns: splits[i]!.map((b) => ({
          campaignId: b.campaignId,
          reason: b.reason,
          amount: b.amount.toString(),
        })),
      })),
    };
    return { file, splits };
  }

  before(async function () {
    h = await createHarness({ chainIds: [CHAIN_ID] });
    server = await startTreeServer();
    dir = await mkdtemp(join(tmpdir(), 'roots-trees-'));
    const { devnet, stack } = h.chains[0]!;
    target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    token = stack.tokens.rewards[0]!.address.toLowerCase() as Address;
  });

  after(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    await h?.close();
  });

  it('indexes TreeUpdated into roots, verifies the tree served over HTTP and stores its rewards and breakdowns exactly', async () => {
    const { file, splits } = makeTree();
    server.publish(CHAIN_ID, file.root, file);
    const ipfsHash = keccak256(toHex('ipfs tree 1'));
    const tx = await updateTree({ ...target, root: file.root, ipfsHash, mineUntilLive: true });
    await h.runJob('blocks');
    const run = await runRoots();

    const roots = await listRoots(h.deps.pg, CHAIN_ID);
    expect(roots).to.have.length(1);
    const block = (
      await h.deps.pg.query('SELECT hash, timestamp FROM blocks WHERE chain_id = $1 AND number = $2', [
        CHAIN_ID,
        Number(tx.blockNumber),
      ])
    ).rows[0];
    expect(roots[0]).to.deep.include({
      chainId: CHAIN_ID,
      root: file.root,
      ipfsHash,
      endOfDisputePeriod: tx.endOfDisputePeriod,
      blockNumber: Number(tx.blockNumber),
      blockHash: block.hash,
      txHash: tx.txHash.toLowerCase(),
      timestamp: Number(block.timestamp),
      revoked: false,
      treeStatus: 'verified',
    });
    expect(await getRewardTree(h.deps.pg, CHAIN_ID, file.root)).to.deep.include({
      status: 'verified',
      computedRoot: file.root,
      leaves: 3,
      error: null,
      attempts: 1,
    });

    const expected = users
      .map((recipient, i) => ({
        recipient,
        token,
        amount: splits[i]!.reduce((s, b) => s + b.amount, 0n).toString(),
        breakdowns: splits[i]!.map((b) => ({
          campaignId: b.campaignId,
          reason: b.reason,
          amount: b.amount.toString(),
        })).sort((a, b) => a.campaignId.localeCompare(b.campaignId)),
      }))
      .sort((a, b) => a.recipient.localeCompare(b.recipient));
    expect(await loadRewards(h.deps.pg, { chainId: CHAIN_ID, root: file.root })).to.deep.equal(expected);
    const { rows: raw } = await h.deps.pg.query(
      `SELECT b.amount::text AS amount FROM reward_breakdowns b WHERE b.root = $1 ORDER BY b.amount`,
      [file.root],
    );
    expect(raw.map((r) => r.amount)).to.deep.equal(
      splits
        .flat()
        .map((b) => b.amount)
        .sort((a, b) => (a < b ? -1 : 1))
        .map(String),
    );

    expect(run.status).to.equal('success');
    if (run.status === 'success')
      expect(run.result.counts).to.deep.include({
        roots: 1,
        trees_verified: 1,
        trees_mismatch: 0,
        rewards: 3,
        trees_anchored: 1,
      });
    // The stored tree is cut into its campaigns' anchors in the same run (GET /v4/rewards?campaignId pages).
    const anchored = await h.deps.pg.query<{ bucket: number; anchors: number; rows: number }>(
      `SELECT m.bucket, (SELECT count(*)::int FROM reward_campaign_anchors a WHERE a.chain_id = m.chain_id AND a.seq = m.seq) AS anchors,
         (SELECT sum(size)::int FROM reward_campaign_anchors a WHERE a.chain_id = m.chain_id AND a.seq = m.seq) AS rows
       FROM reward_anchored_trees m JOIN reward_trees t ON t.chain_id = m.chain_id AND t.seq = m.seq WHERE t.root = $1`,
      [file.root],
    );
    expect(anchored.rows).to.deep.equal([
      { bucket: ANCHOR_BUCKET, anchors: new Set(splits.flat().map((b) => b.campaignId)).size, rows: raw.length },
    ]);
    expect(await chainEndOfDispute()).to.equal(await readDistributor('endOfDisputePeriod'));
    const now = await getLatestTimestamp(target);
    expect((await loadLiveRoot(h.deps.pg, CHAIN_ID, now))?.root).to.equal(await readDistributor('getMerkleRoot'));

    const requests = server.requests.length;
    await runRoots();
    expect(server.requests).to.have.length(requests);
    expect(await listRoots(h.deps.pg, CHAIN_ID)).to.have.length(1);
  });

  it('records a tampered tree as a mismatch, stores none of its rewards and counts it in job_runs', async () => {
    const { file } = makeTree();
    const tampered = structuredClone(file);
    tampered.rewards[1]!.amount = (BigInt(tampered.rewards[1]!.amount) + 1n).toString();
    tampered.rewards[1]!.breakdowns[0]!.amount = (BigInt(tampered.rewards[1]!.breakdowns[0]!.amount) + 1n).toString();
    server.publish(CHAIN_ID, file.root, tampered);
    await updateTree({ ...target, root: file.root, mineUntilLive: true });
    await h.runJob('blocks');
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    await runJob(syncRoots, depsWith(server.urlTemplate, { logger }));

    const computed = buildRewardTree(
      tampered.rewards.map((r) => ({ user: r.recipient, token: r.token, amount: BigInt(r.amount) })),
    ).root;
    const tree = await getRewardTree(h.deps.pg, CHAIN_ID, file.root);
    expect(tree).to.deep.include({ status: 'mismatch', computedRoot: computed, leaves: 3, attempts: 1 });
    expect(tree!.error).to.equal(`computed root ${computed} differs from on-chain root ${file.root}`);
    // The alert: one error-level line naming chain, root and computed root.
    expect(lines.filter((l) => l['level'] === 50)).to.deep.equal([
      lines.find((l) => l['msg'] === 'reward tree mismatch'),
    ]);
    expect(lines.find((l) => l['msg'] === 'reward tree mismatch')).to.deep.include({
      job: 'roots',
      chain_id: CHAIN_ID,
      root: file.root,
      computed_root: computed,
      failed_checks: ['root'],
    });
    expect(
      (await h.deps.pg.query('SELECT count(*)::int AS n FROM rewards WHERE root = $1', [file.root])).rows[0].n,
    ).to.equal(0);
    expect(
      (await h.deps.pg.query('SELECT count(*)::int AS n FROM reward_breakdowns WHERE root = $1', [file.root])).rows[0]
        .n,
    ).to.equal(0);
    expect(await lastRun()).to.deep.include({
      status: 'success',
      counts: {
        roots: 1,
        distributor_events: 0,
        trees_verified: 0,
        trees_mismatch: 1,
        trees_unavailable: 0,
        rewards: 0,
        proof_material_rebuilt: 0,
        roots_announced_live: 0,
        trees_anchored: 0,
      },
    });
    const live = await loadLiveRoot(h.deps.pg, CHAIN_ID, await getLatestTimestamp(target));
    expect(live).to.deep.include({ root: file.root, treeStatus: 'mismatch' });

    // A mismatch is final for that root: not fetched again.
    const requests = server.requests.length;
    await runRoots();
    expect(server.requests).to.have.length(requests);
  });

  it('marks a tree not yet published unavailable, then verifies it on the run after it is published', async () => {
    const { file } = makeTree();
    await updateTree({ ...target, root: file.root, mineUntilLive: true });
    await h.runJob('blocks');
    await runRoots();
    expect(await getRewardTree(h.deps.pg, CHAIN_ID, file.root)).to.deep.include({
      status: 'unavailable',
      attempts: 1,
      error: 'not published',
      computedRoot: null,
    });
    expect((await lastRun()).counts).to.deep.include({ trees_unavailable: 1, trees_verified: 0 });

    server.publish(CHAIN_ID, file.root, '<html>maintenance</html>');
    await runRoots();
    expect(await getRewardTree(h.deps.pg, CHAIN_ID, file.root)).to.deep.include({
      status: 'unavailable',
      attempts: 2,
      error: 'invalid reward tree: not JSON (by byte 24)',
    });

    server.publish(CHAIN_ID, file.root, file);
    await runRoots();
    expect(await getRewardTree(h.deps.pg, CHAIN_ID, file.root)).to.deep.include({
      status: 'verified',
      attempts: 3,
      error: null,
      computedRoot: file.root,
    });
    expect((await loadRewards(h.deps.pg, { chainId: CHAIN_ID, root: file.root })).map((r) => r.amount)).to.have.members(
      file.rewards.map((r) => r.amount),
    );
    expect((await lastRun()).counts).to.deep.include({ roots: 0, trees_verified: 1, rewards: 3 });
  });

  it('reads trees from a directory source', async () => {
    const { file } = makeTree();
    await writeRewardTree(dir, file);
    const tx = await updateTree({ ...target, root: file.root, mineUntilLive: true });
    await h.runJob('blocks');
    await runJob(syncRoots, depsWith(dir));
    expect(await getRewardTree(h.deps.pg, CHAIN_ID, file.root)).to.deep.include({ status: 'verified', leaves: 3 });
    expect(
      await loadRewards(h.deps.pg, {
        chainId: CHAIN_ID,
        root: file.root,
        recipient: users[2]!.toUpperCase().replace('0X', '0x'),
      }),
    ).to.deep.equal([
      {
        recipient: users[2],
        token,
        amount: file.rewards[2]!.amount,
        breakdowns: file.rewards[2]!.breakdowns.slice().sort((a, b) => a.campaignId.localeCompare(b.campaignId)),
      },
    ]);
    expect(await chainEndOfDispute()).to.equal(tx.endOfDisputePeriod);
    expect(await chainEndOfDispute()).to.equal(await readDistributor('endOfDisputePeriod'));
  });

  it('marks the revoked root on Revoked, and the previous root re-emitted by the revoke is live at once', async () => {
    const before = (await listRoots(h.deps.pg, CHAIN_ID)).at(-1)!;
    const { file } = makeTree();
    const pending = await updateTree({ ...target, root: file.root }); // still in its dispute period
    const clients = createDevnetClients(target);
    const hash = await clients.walletClient.writeContract({
      address: target.stack.distributor,
      abi: distributorAbi,
      functionName: 'revokeTree',
    });
    await clients.publicClient.waitForTransactionReceipt({ hash });
    await h.runJob('blocks');
    const run = await runRoots(dir);

    const roots = await listRoots(h.deps.pg, CHAIN_ID);
    const [revoked, reemitted] = roots.slice(-2);
    expect(revoked).to.deep.include({ root: file.root, blockNumber: Number(pending.blockNumber), revoked: true });
    expect(reemitted).to.deep.include({
      root: before.root,
      revoked: false,
      txHash: hash.toLowerCase(),
      treeStatus: 'verified',
    });
    expect(reemitted!.endOfDisputePeriod).to.be.at.most(reemitted!.timestamp);
    expect(roots.filter((r) => r.revoked)).to.have.length(1);
    const { rows: events } = await h.deps.pg.query('SELECT kind, tx_hash FROM distributor_events WHERE chain_id = $1', [
      CHAIN_ID,
    ]);
    expect(events).to.deep.equal([{ kind: 'revoked', tx_hash: hash.toLowerCase() }]);
    if (run.status === 'success') expect(run.result.counts).to.deep.include({ roots: 2, distributor_events: 1 });
    // Announced in the event log (#32): the new root seen, revoked at the Revoked log's block; the re-emitted one seen again.
    const { rows: logged } = await h.deps.pg.query<{ type: string; root: string; block_number: string }>(
      `SELECT type, root, block_number::text FROM events WHERE chain_id = $1 AND type IN ('root.seen', 'root.revoked') ORDER BY id DESC LIMIT 3`,
      [CHAIN_ID],
    );
    expect(logged.reverse().map((e) => [e.type, e.root])).to.deep.equal([
      ['root.seen', file.root.toLowerCase()],
      ['root.seen', before.root.toLowerCase()],
      ['root.revoked', file.root.toLowerCase()],
    ]);
    expect(Number(logged[2]!.block_number)).to.be.greaterThan(Number(pending.blockNumber));

    const now = await getLatestTimestamp(target);
    expect((await loadLiveRoot(h.deps.pg, CHAIN_ID, now))!.root).to.equal(before.root);
    expect(await readDistributor('getMerkleRoot')).to.equal(before.root);
    // The revoke's TreeUpdated carries a past time, but the contract stores 0: the chain row follows the contract.
    expect(await chainEndOfDispute()).to.equal(0);
    expect(await chainEndOfDispute()).to.equal(await readDistributor('endOfDisputePeriod'));
  });

  it('retries RPC faults within its bound, fails loudly past it without moving its cursor, then resumes from the cursor', async () => {
    const { devnet } = h.chains[0]!;
    const proxy = await startFlakyRpcProxy(devnet.rpcUrl);
    try {
      const rpc = createChainClients({
        chains: h.config.chains.map((c) => ({ ...c, rpcUrl: proxy.url })),
        indexer: h.config.indexer,
      });
      const flakyDeps = depsWith(server.urlTemplate, { rpc });
      expect(h.config.indexer.rpcRetries).to.equal(1);

      const first = makeTree().file;
      server.publish(CHAIN_ID, first.root, first);
      await updateTree({ ...target, root: first.root, mineUntilLive: true });
      await h.runJob('blocks');
      proxy.failNext(1); // within RPC_RETRIES = 1
      expect((await runJob(syncRoots, flakyDeps)).status).to.equal('success');
      expect(proxy.requests()).to.be.at.least(2);
      expect(await getRewardTree(h.deps.pg, CHAIN_ID, first.root)).to.deep.include({ status: 'verified' });
      const cursor = await getCursor(h.deps.pg, 'roots', CHAIN_ID);

      const second = makeTree().file;
      server.publish(CHAIN_ID, second.root, second);
      await updateTree({ ...target, root: second.root, mineUntilLive: true });
      await h.runJob('blocks');
      proxy.failNext(100);
      const failure = await runJob(syncRoots, flakyDeps).then(
        () => null,
        (e: unknown) => e,
      );
      expect(failure).to.be.instanceOf(Error);
      expect(await lastRun()).to.deep.include({ status: 'failed' });
      expect((await lastRun()).error).to.match(/HTTP request failed|503/i);
      expect(await getCursor(h.deps.pg, 'roots', CHAIN_ID)).to.equal(cursor);
      expect((await listRoots(h.deps.pg, CHAIN_ID)).map((r) => r.root)).not.to.include(second.root);

      proxy.heal();
      expect((await runJob(syncRoots, flakyDeps)).status).to.equal('success');
      expect((await listRoots(h.deps.pg, CHAIN_ID)).at(-1)).to.deep.include({
        root: second.root,
        treeStatus: 'verified',
      });
      expect(await getCursor(h.deps.pg, 'roots', CHAIN_ID)).to.equal(await getCursor(h.deps.pg, 'blocks', CHAIN_ID));
    } finally {
      await proxy.close();
    }
  });

  it('refuses logs from a block that is not the stored canonical one, and indexes the new branch after the blocks job rolls back', async () => {
    const cursor = await getCursor(h.deps.pg, 'roots', CHAIN_ID);
    const id = await snapshot(target);
    const orphan = makeTree().file;
    await updateTree({ ...target, root: orphan.root, ipfsHash: keccak256(toHex('orphan')) });
    await h.runJob('blocks'); // stores the block holding the orphaned TreeUpdated
    expect(await revert({ rpcUrl: target.rpcUrl, id })).to.equal(true);
    const canonical = makeTree().file;
    server.publish(CHAIN_ID, canonical.root, canonical);
    await updateTree({ ...target, root: canonical.root, mineUntilLive: true }); // same height, another block

    const failure = await runRoots().then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).to.have.property('name', 'ReorgDetectedError');
    expect(await getCursor(h.deps.pg, 'roots', CHAIN_ID)).to.equal(cursor);
    const roots = (await listRoots(h.deps.pg, CHAIN_ID)).map((r) => r.root);
    expect(roots).not.to.include(orphan.root);
    expect(roots).not.to.include(canonical.root);

    await h.runJob('blocks'); // finds the common ancestor and rolls every chain-derived table back
    await runRoots();
    const after = await listRoots(h.deps.pg, CHAIN_ID);
    expect(after.map((r) => r.root)).not.to.include(orphan.root);
    expect(after.at(-1)).to.deep.include({ root: canonical.root, treeStatus: 'verified', revoked: false });
    expect(await chainEndOfDispute()).to.equal(await readDistributor('endOfDisputePeriod'));
    expect(await readDistributor('getMerkleRoot')).to.equal(canonical.root);
  });

  it('rolls back roots and a Revoked of an orphaned branch, and un-revokes the root it had marked', async () => {
    const live = (await listRoots(h.deps.pg, CHAIN_ID)).at(-1)!;
    const id = await snapshot(target);
    const clients = createDevnetClients(target);
    const hash = await clients.walletClient.writeContract({
      address: target.stack.distributor,
      abi: distributorAbi,
      functionName: 'revokeTree',
    });
    await clients.publicClient.waitForTransactionReceipt({ hash });
    await h.runJob('blocks');
    await runRoots();
    const orphaned = await listRoots(h.deps.pg, CHAIN_ID);
    expect(orphaned.find((r) => r.blockNumber === live.blockNumber)).to.deep.include({
      root: live.root,
      revoked: true,
    });
    expect(orphaned.at(-1)).to.deep.include({ txHash: hash.toLowerCase() });
    const revokes = async () =>
      (await h.deps.pg.query(`SELECT count(*)::int AS n FROM distributor_events WHERE chain_id = $1`, [CHAIN_ID]))
        .rows[0].n;
    expect(await revokes()).to.equal(2);

    expect(await revert({ rpcUrl: target.rpcUrl, id })).to.equal(true);
    await mine({ rpcUrl: target.rpcUrl, blocks: 3 }); // a longer branch without the revoke
    await h.runJob('blocks');
    await runRoots();
    const roots = await listRoots(h.deps.pg, CHAIN_ID);
    expect(roots.at(-1)).to.deep.equal(live);
    expect(roots.filter((r) => r.txHash === hash.toLowerCase())).to.deep.equal([]);
    expect(await revokes()).to.equal(1);
    expect((await loadLiveRoot(h.deps.pg, CHAIN_ID, await getLatestTimestamp(target)))!.root).to.equal(live.root);
    expect(await chainEndOfDispute()).to.equal(await readDistributor('endOfDisputePeriod'));
  });
});
