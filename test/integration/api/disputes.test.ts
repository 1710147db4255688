import { expect } from 'chai';
import { keccak256, toHex, type Address, type Hex } from 'viem';
import { disputeTree, resolveDispute, updateTree, type ActionTarget } from '../../../contracts/actions.js';
import { distributorAbi } from '../../../contracts/artifacts/index.js';
import type { DeployedStack } from '../../../contracts/deploy.js';
import { HARDHAT_TEST_KEYS, createDevnetClients } from '../../../contracts/clients.js';
import { buildRewardTree } from '../../../domain/rewardTree.js';
import { runJob } from '../../../jobs/runJob.js';
import { syncRoots } from '../../../jobs/syncRoots.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { prepareDisputers } from '../../helpers/disputes.js';
import { startTreeServer, type TreeServer } from '../../helpers/treeServer.js';

const CHAIN_ID = 31337;
const [, disputerKey, secondDisputerKey] = HARDHAT_TEST_KEYS;

type Dispute = {
  chainId: number;
  root: string | null;
  disputer: string | null;
  message: string;
  createdAt: number;
  blockNumber: number;
  logIndex: number;
  txHash: string;
  status: 'open' | 'valid' | 'invalid';
  resolution: {
    valid: boolean;
    resolvedAt: number;
    blockNumber: number;
    logIndex: number;
    txHash: string;
    endOfDisputePeriod: number | null;
  } | null;
  rootRevoked: boolean;
};

/**
 * Dispute history (GET /v4/disputes, /v4/disputes/{chainId}, /v4/roots/dispute, /v4/roots/reports/{chainId}) against
 * the real Distributor on the devnet: roots pushed, disputed by two wallets, resolved valid and invalid, one left open;
 * after indexing, every served dispute equals what the chain's own logs say (read back from the node, not from our
 * tables): the disputed root is `tree()` read at the Disputed block, the disputer is the transaction's sender, the
 * resolution is the DisputeResolved log after it, and the invalid resolution's end is `endOfDisputePeriod()` there.
 */
describe('GET /v4/disputes and root dispute views follow the Distributor logs', function () {
  let h: Harness;
  let server: TreeServer;
  let target: ActionTarget & { stack: DeployedStack };
  const rootOf = (n: number) => keccak256(toHex(`disputes-root-${n}`));

  async function index(): Promise<void> {
    expect((await h.runJob('blocks')).status, 'blocks').to.equal('success');
    expect(
      (
        await runJob(syncRoots, {
          ...h.deps,
          config: { ...h.config, rewardTrees: { ...h.config.rewardTrees, source: server.urlTemplate } },
        })
      ).status,
      'roots',
    ).to.equal('success');
  }

  /** The chain's disputes, newest first, built from the node's logs and state only. */
  async function disputesFromChain(): Promise<Dispute[]> {
    const { publicClient } = createDevnetClients(target);
    const address = target.stack.distributor;
    const [disputed, resolved] = await Promise.all([
      publicClient.getContractEvents({ address, abi: distributorAbi, eventName: 'Disputed', fromBlock: 0n }),
      publicClient.getContractEvents({ address, abi: distributorAbi, eventName: 'DisputeResolved', fromBlock: 0n }),
    ]);
    const pos = (l: { blockNumber: bigint; logIndex: number }) => Number(l.blockNumber) * 1e6 + l.logIndex;
    const out: Dispute[] = [];
    for (const d of disputed) {
      const [tx, block, tree] = await Promise.all([
        publicClient.getTransaction({ hash: d.transactionHash }),
        publicClient.getBlock({ blockNumber: d.blockNumber }),
        publicClient.readContract({ address, abi: distributorAbi, functionName: 'tree', blockNumber: d.blockNumber }),
      ]);
      const r = resolved.find((x) => pos(x) > pos(d));
      const nextDispute = disputed.find((x) => pos(x) > pos(d));
      const res = r && (!nextDispute || pos(r) < pos(nextDispute)) ? r : undefined;
      let resolution: Dispute['resolution'] = null;
      let rootRevoked = false;
      if (res) {
        const rb = await publicClient.getBlock({ blockNumber: res.blockNumber });
        const valid = res.args.valid!;
        const end = valid
          ? null
          : Number(
              await publicClient.readContract({
                address,
                abi: distributorAbi,
                functionName: 'endOfDisputePeriod',
                blockNumber: res.blockNumber,
              }),
            );
        resolution = {
          valid,
          resolvedAt: Number(rb.timestamp),
          blockNumber: Number(res.blockNumber),
          logIndex: res.logIndex,
          txHash: res.transactionHash,
          endOfDisputePeriod: end,
        };
        rootRevoked = valid;
      }
      out.push({
        chainId: CHAIN_ID,
        root: (tree as readonly [Hex, Hex])[0].toLowerCase(),
        disputer: tx.from.toLowerCase(),
        message: d.args.reason!,
        createdAt: Number(block.timestamp),
        blockNumber: Number(d.blockNumber),
        logIndex: d.logIndex,
        txHash: d.transactionHash,
        status: res ? (res.args.valid ? 'valid' : 'invalid') : 'open',
        resolution,
        rootRevoked,
      });
    }
    return out.reverse();
  }

  before(async function () {
    this.timeout(300_000);
    h = await createHarness({ chainIds: [CHAIN_ID] });
    server = await startTreeServer();
    const { devnet, stack } = h.chains[0]!;
    target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    const token = await prepareDisputers(target, [disputerKey!, secondDisputerKey!]);
    // A published (and so verified) tree for the first root; the others are not published.
    const user = '0x976ea74026e726554db657fa54763abd0c3a0aa9' as Address;
    const { root } = buildRewardTree([{ user, token, amount: 5n }]);
    server.publish(CHAIN_ID, root, {
      root,
      chainId: CHAIN_ID,
      rewards: [
        {
          recipient: user,
          token,
          amount: '5',
          breakdowns: [{ campaignId: `0x${'c7'.repeat(32)}`, reason: 'r', amount: '5' }],
        },
      ],
    });
    await updateTree({ ...target, root, mineUntilLive: true });
    // Root 1 disputed by wallet 1 and revoked (valid); root 2 disputed by wallet 2, rejected (invalid), disputed again.
    await updateTree({ ...target, root: rootOf(1) });
    await disputeTree({ ...target, privateKey: disputerKey, reason: 'amounts too high' });
    await resolveDispute({ ...target, valid: true });
    await updateTree({ ...target, root: rootOf(2) });
    await disputeTree({ ...target, privateKey: secondDisputerKey, reason: 'missing campaign 0xabc' });
    await resolveDispute({ ...target, valid: false });
    await disputeTree({ ...target, privateKey: disputerKey, reason: 'still wrong' });
    await index();
  });

  after(async () => {
    await server?.close();
    await h?.close();
  });

  it("serves a chain's history exactly as the chain's logs say, newest first, paged and by status", async () => {
    const expected = await disputesFromChain();
    expect(expected.map((d) => d.status)).to.deep.equal(['open', 'invalid', 'valid']);
    const served = (await h.request().get(`/v4/disputes/${CHAIN_ID}`).expect(200)).body as Dispute[];
    expect(served).to.deep.equal(expected);
    expect(served[0]!.root).to.equal(rootOf(2));
    expect(served[2]!.root).to.equal(rootOf(1));
    expect(
      (await h.request().get(`/v4/disputes/${CHAIN_ID}/`).query({ items: 1, page: 1 }).expect(200)).body,
    ).to.deep.equal([expected[1]]);
    expect(
      (await h.request().get(`/v4/disputes/${CHAIN_ID}`).query({ status: 'valid' }).expect(200)).body,
    ).to.deep.equal([expected[2]]);
  });

  it('keys the latest roots of each chain by root, with their disputes in chain order', async () => {
    const expected = await disputesFromChain();
    const body = (await h.request().get('/v4/disputes').expect(200)).body as Record<string, Record<string, Dispute[]>>;
    expect(Object.keys(body)).to.deep.equal([String(CHAIN_ID)]);
    const chain = body[String(CHAIN_ID)]!;
    expect(chain[rootOf(1)]).to.deep.equal([expected[2]]);
    expect(chain[rootOf(2)]).to.deep.equal([expected[1], expected[0]]);
    // Four TreeUpdated logs (first root, root 1, the first root again after the revoke, root 2): three distinct roots.
    expect(Object.keys(chain)).to.have.length(3);
    const two = (await h.request().get('/v4/disputes/').query({ chainId: CHAIN_ID, roots: 1 }).expect(200)).body;
    expect(two).to.deep.equal({ [String(CHAIN_ID)]: { [rootOf(2)]: [expected[1], expected[0]] } });
  });

  it('says a dispute is live while one is open, and not once it is resolved', async () => {
    const expected = await disputesFromChain();
    expect((await h.request().get('/v4/roots/dispute').expect(200)).body).to.deep.equal({
      disputeLive: true,
      chainsChecked: [CHAIN_ID],
      open: [expected[0]],
    });
    await resolveDispute({ ...target, valid: false });
    await index();
    const after = await disputesFromChain();
    expect(after[0]!.status).to.equal('invalid');
    expect((await h.request().get('/v4/roots/dispute/').expect(200)).body).to.deep.equal({
      disputeLive: false,
      chainsChecked: [CHAIN_ID],
      open: [],
    });
    expect((await h.request().get(`/v4/disputes/${CHAIN_ID}`).expect(200)).body).to.deep.equal(after);
  });

  it('reports each TreeUpdated newest first with its tree check, revocation and dispute count', async () => {
    const { publicClient } = createDevnetClients(target);
    const updates = await publicClient.getContractEvents({
      address: target.stack.distributor,
      abi: distributorAbi,
      eventName: 'TreeUpdated',
      fromBlock: 0n,
    });
    const body = (await h.request().get(`/v4/roots/reports/${CHAIN_ID}`).expect(200)).body as {
      root: string;
      txHash: string;
      isLatest: boolean;
      revoked: boolean;
      treeStatus: string | null;
      disputes: number;
      report: string;
      leaves: number | null;
    }[];
    expect(body.map((r) => [r.root, r.txHash])).to.deep.equal(
      updates.map((u) => [u.args.merkleRoot!.toLowerCase(), u.transactionHash]).reverse(),
    );
    expect(body.map((r) => [r.isLatest, r.revoked, r.disputes])).to.deep.equal([
      [true, false, 2],
      [false, false, 0],
      [false, true, 1],
      [false, false, 0],
    ]);
    expect(body[3]!.treeStatus).to.equal('verified');
    expect(body[3]!.leaves).to.equal(1);
    expect(body[3]!.report).to.match(/^Verified: the published tree's 1 leaves/);
    expect(body[0]!.treeStatus).to.equal('unavailable');
    expect(body[2]!.report).to.match(/The root was revoked\.$/);
    const page = (await h.request().get(`/v4/roots/reports/${CHAIN_ID}/`).query({ items: 1, page: 2 }).expect(200))
      .body;
    expect(page).to.deep.equal([body[2]]);
  });

  it('refuses bad input with a problem naming the field, and 404 for a chain not indexed here', async () => {
    const bad = await h.request().get('/v4/disputes/abc').expect(400);
    expect(JSON.stringify(bad.body)).to.include('chainId');
    const status = await h.request().get(`/v4/disputes/${CHAIN_ID}`).query({ status: 'pending' }).expect(400);
    expect(JSON.stringify(status.body)).to.include('status');
    const roots = await h.request().get('/v4/disputes').query({ roots: 0 }).expect(400);
    expect(JSON.stringify(roots.body)).to.include('roots');
    await h.request().get('/v4/disputes/999999').expect(404);
    await h.request().get('/v4/disputes').query({ chainId: 999999 }).expect(404);
    await h.request().get('/v4/roots/reports/999999').expect(404);
    const extra = await h.request().get('/v4/roots/dispute').query({ chainId: 1 }).expect(400);
    expect(JSON.stringify(extra.body)).to.include('chainId');
  });
});
