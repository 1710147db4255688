import { expect } from 'chai';
import { parseEventLogs, parseUnits } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { claim, updateTree, type ActionTarget } from '../../../contracts/actions.js';
import { distributorAbi, testErc20Abi } from '../../../contracts/artifacts/index.js';
import { HARDHAT_TEST_KEYS, createDevnetClients } from '../../../contracts/clients.js';
import { buildRewardTree, rewardTreeKey, type RewardLeaf, type RewardTree } from '../../../domain/rewardTree.js';
import { claimedTotals } from '../../../api/reads/claims.js';
import { getCursor } from '../../../indexer/store/cursor.js';
import { runJob } from '../../../jobs/runJob.js';
import { syncClaims } from '../../../jobs/syncClaims.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const CHAIN_ID = 31337;
const [aliceKey, bobKey] = HARDHAT_TEST_KEYS;
const alice = privateKeyToAccount(aliceKey).address;
const bob = privateKeyToAccount(bobKey).address;

describe('jobs/syncClaims', function () {
  let h: Harness;
  let target: ActionTarget;
  let rwd: Address;
  let usdc: Address;

  const line = (tree: RewardTree, leaf: RewardLeaf) => ({
    ...leaf,
    proof: tree.proofs.get(rewardTreeKey(leaf.user, leaf.token))!,
  });
  const claimRows = async () =>
    (
      await h.deps.pg.query(
        `SELECT chain_id, recipient, token, amount::text AS amount, block_number::int AS block_number, block_hash, tx_hash, log_index, timestamp::int AS timestamp
       FROM claims ORDER BY block_number, log_index`,
      )
    ).rows;
  const blockOf = async (n: bigint) =>
    (
      await h.deps.pg.query(
        'SELECT hash, timestamp::int AS timestamp FROM blocks WHERE chain_id = $1 AND number = $2',
        [CHAIN_ID, Number(n)],
      )
    ).rows[0];
  /** Log indices of the Claimed logs of a transaction, from its receipt. */
  const claimedLogIndices = async (hash: Hex) =>
    parseEventLogs({
      abi: distributorAbi,
      eventName: 'Claimed',
      logs: (await createDevnetClients(target).publicClient.getTransactionReceipt({ hash })).logs,
    }).map((l) => l.logIndex);
  const onchainClaimed = (user: Address, token: Address) =>
    createDevnetClients(target)
      .publicClient.readContract({
        address: target.stack.distributor,
        abi: distributorAbi,
        functionName: 'claimed',
        args: [user, token],
      })
      .then((c) => c[0]);

  before(async function () {
    h = await createHarness({ chainIds: [CHAIN_ID] });
    const { devnet, stack } = h.chains[0]!;
    target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    [rwd, usdc] = stack.tokens.rewards.map((t) => t.address) as [Address, Address];
    // Fund the Distributor directly (campaign funding is the campaigns job's concern).
    const clients = createDevnetClients(target);
    for (const [token, amount] of [
      [rwd, parseUnits('1000', 18)],
      [usdc, parseUnits('1000', 6)],
    ] as const) {
      const hash = await clients.walletClient.writeContract({
        address: token,
        abi: testErc20Abi,
        functionName: 'mint',
        args: [stack.distributor, amount],
      });
      await clients.publicClient.waitForTransactionReceipt({ hash });
    }
  });

  after(async () => h?.close());

  it('does nothing before the blocks job stored headers', async () => {
    const run = await runJob(syncClaims, h.deps);
    expect(run.status === 'success' && run.result).to.deep.equal({ ranges: [], counts: { claims: 0 } });
    expect(await getCursor(h.deps.pg, 'claims', CHAIN_ID)).to.equal(null);
    expect(
      (await h.deps.pg.query('SELECT last_claims_onchain_fetch_at FROM chains WHERE id = $1', [CHAIN_ID])).rows[0]
        .last_claims_onchain_fetch_at,
    ).to.equal(null);
  });

  it('stores one row per Claimed log with the delta paid, and claimedTotals sums them; a repeat claim records 0', async () => {
    const leaves: RewardLeaf[] = [
      { user: alice, token: rwd, amount: parseUnits('10', 18) },
      { user: alice, token: usdc, amount: parseUnits('25', 6) },
      { user: bob, token: rwd, amount: parseUnits('3', 18) },
    ];
    const tree = buildRewardTree(leaves);
    await updateTree({ ...target, root: tree.root, mineUntilLive: true });
    // Alice claims for herself; the deployer (the governor) claims for Bob.
    const first = await claim({
      ...target,
      privateKey: aliceKey,
      claims: [line(tree, leaves[0]!), line(tree, leaves[1]!)],
    });
    const forBob = await claim({ ...target, claims: [line(tree, leaves[2]!)] });
    const repeat = await claim({ ...target, privateKey: aliceKey, claims: [line(tree, leaves[0]!)] });
    expect(repeat.claimed).to.deep.equal([{ user: alice, token: rwd, amount: 0n }]);

    const started = Date.now();
    await h.runJob('blocks');
    const run = await runJob(syncClaims, h.deps);
    expect(run.status === 'success' && run.result.counts).to.deep.equal({ claims: 4 });

    const [b1, b2, b3] = [
      await blockOf(first.blockNumber),
      await blockOf(forBob.blockNumber),
      await blockOf(repeat.blockNumber),
    ];
    const row = (
      tx: { txHash: string; blockNumber: bigint },
      block: { hash: string; timestamp: number },
      logIndex: number,
      recipient: Address,
      token: Address,
      amount: bigint,
    ) => ({
      chain_id: CHAIN_ID,
      recipient: recipient.toLowerCase(),
      token: token.toLowerCase(),
      amount: amount.toString(),
      block_number: Number(tx.blockNumber),
      block_hash: block.hash,
      tx_hash: tx.txHash.toLowerCase(),
      log_index: logIndex,
      timestamp: block.timestamp,
    });
    const [i1, i2, i3] = [
      await claimedLogIndices(first.txHash),
      await claimedLogIndices(forBob.txHash),
      await claimedLogIndices(repeat.txHash),
    ];
    expect(await claimRows()).to.deep.equal([
      row(first, b1, i1[0]!, alice, rwd, parseUnits('10', 18)),
      row(first, b1, i1[1]!, alice, usdc, parseUnits('25', 6)),
      row(forBob, b2, i2[0]!, bob, rwd, parseUnits('3', 18)),
      row(repeat, b3, i3[0]!, alice, rwd, 0n),
    ]);

    expect(await claimedTotals(h.deps.pg, { chainId: CHAIN_ID })).to.deep.equal(
      [
        {
          chainId: CHAIN_ID,
          recipient: alice.toLowerCase(),
          token: rwd.toLowerCase(),
          claimed: parseUnits('10', 18).toString(),
        },
        {
          chainId: CHAIN_ID,
          recipient: alice.toLowerCase(),
          token: usdc.toLowerCase(),
          claimed: parseUnits('25', 6).toString(),
        },
        {
          chainId: CHAIN_ID,
          recipient: bob.toLowerCase(),
          token: rwd.toLowerCase(),
          claimed: parseUnits('3', 18).toString(),
        },
      ].sort((a, b) => (a.recipient + a.token).localeCompare(b.recipient + b.token)),
    );
    expect(
      await claimedTotals(h.deps.pg, {
        chainId: CHAIN_ID,
        recipient: alice.toUpperCase().replace('0X', '0x'),
        token: rwd,
      }),
    ).to.deep.equal([
      {
        chainId: CHAIN_ID,
        recipient: alice.toLowerCase(),
        token: rwd.toLowerCase(),
        claimed: (await onchainClaimed(alice, rwd)).toString(),
      },
    ]);
    expect((await claimedTotals(h.deps.pg, { chainId: CHAIN_ID, token: usdc })).map((t) => t.recipient)).to.deep.equal([
      alice.toLowerCase(),
    ]);
    expect(await claimedTotals(h.deps.pg, { chainId: 1 })).to.deep.equal([]);

    const fetchedAt: Date = (
      await h.deps.pg.query('SELECT last_claims_onchain_fetch_at FROM chains WHERE id = $1', [CHAIN_ID])
    ).rows[0].last_claims_onchain_fetch_at;
    expect(fetchedAt.getTime()).to.be.within(started - 1000, Date.now() + 1000);
    expect(await getCursor(h.deps.pg, 'claims', CHAIN_ID)).to.equal(await getCursor(h.deps.pg, 'blocks', CHAIN_ID));
  });

  it('records only the increase when a grown cumulative amount is claimed, and totals match the Distributor', async () => {
    const grown: RewardLeaf[] = [
      { user: alice, token: rwd, amount: parseUnits('16', 18) },
      { user: bob, token: rwd, amount: parseUnits('3', 18) },
    ];
    const tree = buildRewardTree(grown);
    await updateTree({ ...target, root: tree.root, mineUntilLive: true });
    const paid = await claim({ ...target, privateKey: aliceKey, claims: [line(tree, grown[0]!)] });
    const again = await claim({ ...target, claims: [line(tree, grown[0]!), line(tree, grown[1]!)] });
    await h.runJob('blocks');
    const run = await runJob(syncClaims, h.deps);
    expect(run.status === 'success' && run.result.counts).to.deep.equal({ claims: 3 });

    const rows = (await claimRows()).slice(-3);
    expect(rows.map((r) => [r.tx_hash, r.recipient, r.amount])).to.deep.equal([
      [paid.txHash.toLowerCase(), alice.toLowerCase(), parseUnits('6', 18).toString()],
      [again.txHash.toLowerCase(), alice.toLowerCase(), '0'],
      [again.txHash.toLowerCase(), bob.toLowerCase(), '0'],
    ]);
    for (const [user, token] of [
      [alice, rwd],
      [alice, usdc],
      [bob, rwd],
    ] as const) {
      const [total] = await claimedTotals(h.deps.pg, { chainId: CHAIN_ID, recipient: user, token });
      expect(total!.claimed).to.equal((await onchainClaimed(user, token)).toString());
    }

    // Re-running over the same blocks (cursor moved back) rewrites the same rows, never duplicates them.
    await h.deps.pg.query(`UPDATE cursors SET block_number = 0 WHERE job = 'claims' AND chain_id = $1`, [CHAIN_ID]);
    await runJob(syncClaims, h.deps);
    expect(await claimRows()).to.have.length(7);
  });
});
