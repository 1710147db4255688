import { expect } from 'chai';
import { keccak256, parseEventLogs, parseUnits, toHex, zeroAddress, zeroHash } from 'viem';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
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
} from '../../../contracts/actions.js';
import { distributorAbi, testErc20Abi } from '../../../contracts/artifacts/index.js';
import { HARDHAT_TEST_KEYS, createDevnetClients } from '../../../contracts/clients.js';
import type { DevnetClients } from '../../../contracts/clients.js';
import { deployStack } from '../../../contracts/deploy.js';
import type { DeployedStack } from '../../../contracts/deploy.js';
import { startDevnetOnFreePort } from '../../../contracts/devnet.js';
import type { Devnet } from '../../../contracts/devnet.js';
import { buildRewardTree, rewardTreeKey } from '../../../domain/rewardTree.js';
import type { RewardLeaf, RewardTree } from '../../../domain/rewardTree.js';
import { expectRevert } from './expectRevert.js';

const CHAIN_ID = 31338;
const EPOCH = 3600;
const [aliceKey, bobKey, carolKey] = HARDHAT_TEST_KEYS;
const alice = privateKeyToAccount(aliceKey).address;
const bob = privateKeyToAccount(bobKey).address;
const carol = privateKeyToAccount(carolKey).address;

/** docs/contracts.md#dispute-period-and-the-live-root: round t up to an epoch boundary, then add P epochs. */
const expectedEndOfDispute = (t: number, period: number, epoch = EPOCH) =>
  (Math.floor((t - 1) / epoch) + 1 + period) * epoch;

describe('contracts/Distributor on a devnet', function () {
  this.timeout(60_000);
  let devnet: Devnet;
  let stack: DeployedStack;
  let clients: DevnetClients;
  let target: { rpcUrl: string; chainId: number; stack: DeployedStack };
  let rwd: Address;
  let usdc: Address;

  const read = <
    F extends
      | 'getMerkleRoot'
      | 'endOfDisputePeriod'
      | 'disputePeriod'
      | 'getEpochDuration'
      | 'tree'
      | 'lastTree'
      | 'disputer',
  >(
    functionName: F,
  ) => clients.publicClient.readContract({ address: stack.distributor, abi: distributorAbi, functionName });
  const balanceOf = (token: Address, owner: Address) =>
    clients.publicClient.readContract({ address: token, abi: testErc20Abi, functionName: 'balanceOf', args: [owner] });
  const claimLine = (tree: RewardTree, leaf: RewardLeaf) => ({
    ...leaf,
    proof: tree.proofs.get(rewardTreeKey(leaf.user, leaf.token))!,
  });
  /** Publishes `tree` (dispute period 0) and mines up to the next epoch boundary, where it goes live. */
  async function publish(tree: RewardTree, ipfsHash: Hex = zeroHash) {
    return updateTree({ ...target, root: tree.root, ipfsHash, mineUntilLive: true });
  }

  before(async () => {
    devnet = await startDevnetOnFreePort({ chainId: CHAIN_ID });
    stack = await deployStack({ rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID });
    clients = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID });
    target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    [rwd, usdc] = stack.tokens.rewards.map((r) => r.address) as [Address, Address];
    // Fund the Distributor directly (campaign funding is covered by the DistributionCreator suite).
    for (const [token, amount] of [
      [rwd, parseUnits('1000000', 18)],
      [usdc, parseUnits('1000000', 6)],
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

  after(async () => {
    await devnet?.stop();
  });

  it('starts with no root, epoch 3600 and dispute period 0, and refuses claims (InvalidUninitializedRoot)', async () => {
    expect(await read('getMerkleRoot')).to.equal(zeroHash);
    expect(await read('getEpochDuration')).to.equal(EPOCH);
    expect(await read('disputePeriod')).to.equal(0);
    await expectRevert(
      claim({ ...target, privateKey: aliceKey, claims: [{ user: alice, token: rwd, amount: 1n, proof: [] }] }),
      'InvalidUninitializedRoot',
    );
  });

  it('the dispute-period formula helper reproduces the documented example', () => {
    expect(expectedEndOfDispute(1700000100, 1)).to.equal(1700006400);
  });

  it('updateTree sets endOfDisputePeriod by the formula and getMerkleRoot switches at that time', async () => {
    await setDisputePeriod({ ...target, disputePeriod: 1 });
    expect(await read('disputePeriod')).to.equal(1);
    const first = buildRewardTree([{ user: alice, token: rwd, amount: 1n }]);
    const second = buildRewardTree([{ user: alice, token: rwd, amount: 2n }]);

    // Mid-epoch update: t = k*E + 100.
    const t1 = (Math.floor((await getLatestTimestamp(devnet)) / EPOCH) + 2) * EPOCH + 100;
    await setNextBlockTimestamp({ rpcUrl: devnet.rpcUrl, timestamp: t1 });
    const u1 = await updateTree({ ...target, root: first.root, ipfsHash: keccak256(toHex('ipfs-1')) });
    const end1 = expectedEndOfDispute(t1, 1);
    expect(end1).to.equal((Math.floor(t1 / EPOCH) + 2) * EPOCH);
    expect(u1.endOfDisputePeriod).to.equal(end1);
    expect(await read('endOfDisputePeriod')).to.equal(end1);
    expect(await read('tree')).to.deep.equal([first.root, keccak256(toHex('ipfs-1'))]);
    expect(await read('lastTree')).to.deep.equal([zeroHash, zeroHash]);
    expect(await read('getMerkleRoot')).to.equal(zeroHash);
    await mine({ rpcUrl: devnet.rpcUrl, timestamp: end1 - 1 });
    expect(await read('getMerkleRoot')).to.equal(zeroHash);
    await mine({ rpcUrl: devnet.rpcUrl, timestamp: end1 });
    expect(await read('getMerkleRoot')).to.equal(first.root);

    // Update exactly on an epoch boundary: t = k*E gives (k + P) * E, not (k + 1 + P) * E.
    const t2 = end1 + 2 * EPOCH;
    await setNextBlockTimestamp({ rpcUrl: devnet.rpcUrl, timestamp: t2 });
    const u2 = await updateTree({ ...target, root: second.root });
    expect(u2.endOfDisputePeriod).to.equal(expectedEndOfDispute(t2, 1));
    expect(u2.endOfDisputePeriod).to.equal(t2 + EPOCH);
    expect(await read('lastTree')).to.deep.equal([first.root, keccak256(toHex('ipfs-1'))]);
    expect(await read('getMerkleRoot')).to.equal(first.root);
    await mine({ rpcUrl: devnet.rpcUrl, timestamp: t2 + EPOCH });
    expect(await read('getMerkleRoot')).to.equal(second.root);

    await setDisputePeriod({ ...target, disputePeriod: 0 });
  });

  it('pays the cumulative delta on claim, emits Claimed, and emits a zero delta on a repeat claim', async () => {
    const leaves: RewardLeaf[] = [
      { user: alice, token: rwd, amount: parseUnits('10', 18) },
      { user: alice, token: usdc, amount: parseUnits('25', 6) },
      { user: bob, token: rwd, amount: parseUnits('3', 18) },
      { user: carol, token: rwd, amount: parseUnits('7', 18) },
    ];
    const tree = buildRewardTree(leaves);
    await publish(tree);
    expect(await read('getMerkleRoot')).to.equal(tree.root);

    const before = { rwd: await balanceOf(rwd, alice), usdc: await balanceOf(usdc, alice) };
    const first = await claim({
      ...target,
      privateKey: aliceKey,
      claims: [claimLine(tree, leaves[0]!), claimLine(tree, leaves[1]!)],
    });
    expect(first.claimed).to.deep.equal([
      { user: alice, token: rwd, amount: parseUnits('10', 18) },
      { user: alice, token: usdc, amount: parseUnits('25', 6) },
    ]);
    expect(await balanceOf(rwd, alice)).to.equal(before.rwd + parseUnits('10', 18));
    expect(await balanceOf(usdc, alice)).to.equal(before.usdc + parseUnits('25', 6));
    const block = await clients.publicClient.getBlock({ blockNumber: first.blockNumber });
    const claimed = await clients.publicClient.readContract({
      address: stack.distributor,
      abi: distributorAbi,
      functionName: 'claimed',
      args: [alice, rwd],
    });
    expect(claimed).to.deep.equal([parseUnits('10', 18), Number(block.timestamp), tree.root]);

    const again = await claim({ ...target, privateKey: aliceKey, claims: [claimLine(tree, leaves[0]!)] });
    expect(again.claimed).to.deep.equal([{ user: alice, token: rwd, amount: 0n }]);
    const receipt = await clients.publicClient.getTransactionReceipt({ hash: again.txHash });
    const [log] = parseEventLogs({ abi: distributorAbi, eventName: 'Claimed', logs: receipt.logs });
    expect(log!.topics).to.have.length(3);
    expect(await balanceOf(rwd, alice)).to.equal(before.rwd + parseUnits('10', 18));

    // Next root grows Alice's cumulative amount: only the difference is paid.
    const grown = leaves.map((l, i) => (i === 0 ? { ...l, amount: parseUnits('16', 18) } : l));
    const next = buildRewardTree(grown);
    await publish(next);
    const delta = await claim({ ...target, privateKey: aliceKey, claims: [claimLine(next, grown[0]!)] });
    expect(delta.claimed).to.deep.equal([{ user: alice, token: rwd, amount: parseUnits('6', 18) }]);
    expect(await balanceOf(rwd, alice)).to.equal(before.rwd + parseUnits('16', 18));
  });

  it('reverts InvalidProof for a wrong amount or proof, NotWhitelisted for a stranger, InvalidLengths for ragged arrays', async () => {
    const leaves: RewardLeaf[] = [
      { user: bob, token: rwd, amount: parseUnits('5', 18) },
      { user: carol, token: rwd, amount: parseUnits('8', 18) },
      { user: alice, token: rwd, amount: parseUnits('20', 18) },
    ];
    const tree = buildRewardTree(leaves);
    await publish(tree);
    const bobLine = claimLine(tree, leaves[0]!);
    await expectRevert(
      claim({ ...target, privateKey: bobKey, claims: [{ ...bobLine, amount: bobLine.amount + 1n }] }),
      'InvalidProof',
    );
    await expectRevert(
      claim({ ...target, privateKey: bobKey, claims: [{ ...bobLine, proof: claimLine(tree, leaves[1]!).proof }] }),
      'InvalidProof',
    );
    await expectRevert(claim({ ...target, privateKey: carolKey, claims: [bobLine] }), 'NotWhitelisted');
    await expectRevert(
      clients.publicClient.simulateContract({
        account: privateKeyToAccount(bobKey),
        address: stack.distributor,
        abi: distributorAbi,
        functionName: 'claim',
        args: [[bob], [rwd, usdc], [bobLine.amount], [bobLine.proof]],
      }),
      'InvalidLengths',
    );
    const ok = await claim({ ...target, privateKey: bobKey, claims: [bobLine] });
    // Bob never claimed the earlier root (3), so the whole cumulative amount is paid.
    expect(ok.claimed).to.deep.equal([{ user: bob, token: rwd, amount: parseUnits('5', 18) }]);
  });

  it('lets only the governor update the tree, and revokeTree rolls back to lastTree at once', async () => {
    const tree = buildRewardTree([{ user: alice, token: rwd, amount: parseUnits('30', 18) }]);
    await expectRevert(updateTree({ ...target, privateKey: aliceKey, root: tree.root }), 'NotTrusted');
    const [previousRoot] = await read('tree');
    await publish(tree, keccak256(toHex('ipfs-revoked')));
    expect(await read('getMerkleRoot')).to.equal(tree.root);

    const { request } = await clients.publicClient.simulateContract({
      account: clients.account,
      address: stack.distributor,
      abi: distributorAbi,
      functionName: 'revokeTree',
    });
    const receipt = await clients.publicClient.waitForTransactionReceipt({
      hash: await clients.walletClient.writeContract(request),
    });
    const block = await clients.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const events = parseEventLogs({ abi: distributorAbi, logs: receipt.logs });
    expect(events.map((e) => e.eventName)).to.deep.equal(['Revoked', 'TreeUpdated']);
    const updated = events[1]!;
    expect(updated.eventName === 'TreeUpdated' && updated.args).to.deep.equal({
      merkleRoot: previousRoot,
      ipfsHash: zeroHash,
      endOfDisputePeriod: Math.floor(Number(block.timestamp) / EPOCH) * EPOCH,
    });
    expect(await read('endOfDisputePeriod')).to.equal(0);
    expect(await read('getMerkleRoot')).to.equal(previousRoot);
  });
  /** Sends a Distributor call as `key` (default: the governor) and waits; returns the receipt. */
  async function write(functionName: string, args: readonly unknown[], key?: Hex) {
    const c = key ? createDevnetClients({ ...target, privateKey: key }) : clients;
    const { request } = await c.publicClient.simulateContract({
      account: c.account,
      address: stack.distributor,
      abi: distributorAbi,
      functionName,
      args,
    } as never);
    return c.publicClient.waitForTransactionReceipt({ hash: await c.walletClient.writeContract(request as never) });
  }

  it('dispute lifecycle: deposit pulled, lastTree served while open even past the period, valid → refund and revoke, invalid → deposit to governor and the period restarts from the resolution', async () => {
    const deposit = parseUnits('100', 18);
    await setDisputeDeposit({ ...target, token: rwd, amount: deposit });
    await setDisputePeriod({ ...target, disputePeriod: 1 });
    const approve = await createDevnetClients({ ...target, privateKey: bobKey }).walletClient.writeContract({
      address: rwd,
      abi: testErc20Abi,
      functionName: 'approve',
      args: [stack.distributor, 2n ** 255n],
    });
    await clients.publicClient.waitForTransactionReceipt({ hash: approve });
    const mint = await clients.walletClient.writeContract({
      address: rwd,
      abi: testErc20Abi,
      functionName: 'mint',
      args: [bob, deposit * 3n],
    });
    await clients.publicClient.waitForTransactionReceipt({ hash: mint });
    const live = await read('getMerkleRoot');

    // Valid dispute: the disputed tree never goes live, the previous root is live at once.
    const bad = buildRewardTree([{ user: carol, token: rwd, amount: parseUnits('999', 18) }]);
    const u1 = await updateTree({ ...target, root: bad.root });
    const bobBefore = await balanceOf(rwd, bob);
    const d1 = await disputeTree({ ...target, privateKey: bobKey, reason: 'wrong amounts' });
    expect(await balanceOf(rwd, bob)).to.equal(bobBefore - deposit);
    expect(await read('disputer')).to.equal(bob);
    const r1 = await clients.publicClient.getTransactionReceipt({ hash: d1.txHash });
    expect(parseEventLogs({ abi: distributorAbi, logs: r1.logs }).map((e) => [e.eventName, e.args])).to.deep.equal([
      ['Disputed', { reason: 'wrong amounts' }],
    ]);
    await expectRevert(disputeTree({ ...target, privateKey: bobKey, reason: 'again' }), 'UnresolvedDispute');
    await mine({ rpcUrl: devnet.rpcUrl, timestamp: u1.endOfDisputePeriod + 10 });
    expect(await read('getMerkleRoot')).to.equal(live); // past the period, but the dispute is open
    await expectRevert(updateTree({ ...target, root: bad.root }), 'NotTrusted'); // nobody while a dispute is open
    const v = await resolveDispute({ ...target, valid: true });
    const rv = await clients.publicClient.getTransactionReceipt({ hash: v.txHash });
    expect(parseEventLogs({ abi: distributorAbi, logs: rv.logs }).map((e) => e.eventName)).to.deep.equal([
      'Revoked',
      'TreeUpdated',
      'DisputeResolved',
    ]);
    expect(await balanceOf(rwd, bob)).to.equal(bobBefore);
    expect(await read('disputer')).to.equal(zeroAddress);
    expect(await read('getMerkleRoot')).to.equal(live);
    expect(await read('endOfDisputePeriod')).to.equal(0);

    // Invalid dispute: no TreeUpdated, endOfDisputePeriod recomputed from the resolution time.
    const good = buildRewardTree([{ user: carol, token: rwd, amount: parseUnits('1', 18) }]);
    const u2 = await updateTree({ ...target, root: good.root });
    await disputeTree({ ...target, privateKey: bobKey, reason: 'frivolous' });
    const tResolve = u2.endOfDisputePeriod + 3 * EPOCH + 17;
    await setNextBlockTimestamp({ rpcUrl: devnet.rpcUrl, timestamp: tResolve });
    const governorBefore = await balanceOf(rwd, clients.account.address);
    const inv = await resolveDispute({ ...target, valid: false });
    const ri = await clients.publicClient.getTransactionReceipt({ hash: inv.txHash });
    expect(parseEventLogs({ abi: distributorAbi, logs: ri.logs }).map((e) => [e.eventName, e.args])).to.deep.equal([
      ['DisputeResolved', { valid: false }],
    ]);
    expect(await balanceOf(rwd, clients.account.address)).to.equal(governorBefore + deposit);
    const end = expectedEndOfDispute(tResolve, 1);
    expect(await read('endOfDisputePeriod')).to.equal(end);
    expect(await read('getMerkleRoot')).to.equal(live);
    await mine({ rpcUrl: devnet.rpcUrl, timestamp: end - 1 });
    expect(await read('getMerkleRoot')).to.equal(live);
    await mine({ rpcUrl: devnet.rpcUrl, timestamp: end });
    expect(await read('getMerkleRoot')).to.equal(good.root);
    await expectRevert(disputeTree({ ...target, privateKey: bobKey, reason: 'too late' }), 'InvalidDispute');
    await setDisputePeriod({ ...target, disputePeriod: 0 });
  });

  it('a trusted address may update the tree only once the dispute period is over', async () => {
    await setDisputePeriod({ ...target, disputePeriod: 1 });
    await write('toggleTrusted', [bob]);
    const a = buildRewardTree([{ user: carol, token: rwd, amount: parseUnits('2', 18) }]);
    const b = buildRewardTree([{ user: carol, token: rwd, amount: parseUnits('3', 18) }]);
    const u = await updateTree({ ...target, root: a.root });
    await expectRevert(updateTree({ ...target, privateKey: bobKey, root: b.root }), 'NotTrusted');
    await mine({ rpcUrl: devnet.rpcUrl, timestamp: u.endOfDisputePeriod });
    await updateTree({ ...target, privateKey: bobKey, root: b.root });
    expect((await read('tree'))[0]).to.equal(b.root);
    await write('toggleTrusted', [bob]);
    await setDisputePeriod({ ...target, disputePeriod: 0 });
    await mine({
      rpcUrl: devnet.rpcUrl,
      timestamp: (Math.floor((await getLatestTimestamp(devnet)) / EPOCH) + 2) * EPOCH,
    });
  });

  it('claim rights: operators[user][caller], operators[user][0], mainOperators[caller][token or 0], governor and guardian; anyone else NotWhitelisted', async () => {
    // Hardhat's public test accounts #4 and #5.
    const daveKey = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a' as const;
    const eveKey = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba' as const;
    const dave = privateKeyToAccount(daveKey).address;
    const eve = privateKeyToAccount(eveKey).address;
    let step = 100n;
    const fresh = async () => {
      step += 1n;
      const leaves: RewardLeaf[] = [
        { user: alice, token: rwd, amount: parseUnits(String(step), 18) },
        { user: alice, token: usdc, amount: parseUnits(String(step), 6) },
      ];
      const tree = buildRewardTree(leaves);
      await publish(tree);
      return leaves.map((l) => claimLine(tree, l));
    };
    let [lineRwd, lineUsdc] = await fresh();
    await expectRevert(claim({ ...target, privateKey: daveKey, claims: [lineRwd!] }), 'NotWhitelisted');
    await write('toggleOperator', [alice, dave], aliceKey);
    await claim({ ...target, privateKey: daveKey, claims: [lineRwd!] });
    await write('toggleOperator', [alice, dave], aliceKey);
    await expectRevert(claim({ ...target, privateKey: daveKey, claims: [lineRwd!] }), 'NotWhitelisted');
    await write('toggleOperator', [alice, zeroAddress], aliceKey);
    await claim({ ...target, privateKey: daveKey, claims: [lineRwd!] });
    await write('toggleOperator', [alice, zeroAddress], aliceKey);
    [lineRwd, lineUsdc] = await fresh();
    await write('toggleMainOperatorStatus', [eve, rwd]);
    await claim({ ...target, privateKey: eveKey, claims: [lineRwd!] });
    await expectRevert(claim({ ...target, privateKey: eveKey, claims: [lineUsdc!] }), 'NotWhitelisted');
    await write('toggleMainOperatorStatus', [eve, rwd]);
    await write('toggleMainOperatorStatus', [eve, zeroAddress]);
    await claim({ ...target, privateKey: eveKey, claims: [lineUsdc!] });
    await write('toggleMainOperatorStatus', [eve, zeroAddress]);
    [lineRwd] = await fresh();
    await expectRevert(claim({ ...target, privateKey: daveKey, claims: [lineRwd!] }), 'NotWhitelisted');
    await write('setGuardian', [dave]);
    await claim({ ...target, privateKey: daveKey, claims: [lineRwd!] });
    await write('setGuardian', [zeroAddress]);
  });
});
