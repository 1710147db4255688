import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keccak256, toHex, type Address, type Hex } from 'viem';
import { updateTree, type ActionTarget } from '../../../contracts/actions.js';
import { writeRewardTree } from '../../../contracts/rewardTrees/writeRewardTree.js';
import { buildRewardTree, rewardTreeKey } from '../../../domain/rewardTree.js';
import type { RewardTreeFile } from '../../../indexer/decode/parseRewardTree.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { childProcessEnv } from '../../helpers/testConfig.js';
import { runJob } from '../../../jobs/runJob.js';
import { syncRoots } from '../../../jobs/syncRoots.js';

const ROOT_DIR = fileURLToPath(new URL('../../../', import.meta.url));
const CHAIN_ID = 31337;
/** Large enough that staging takes a visible while, small enough for CI. */
const LEAVES = 40_000;
const campaignA = keccak256(toHex('ingestion campaign A'));
const campaignB = keccak256(toHex('ingestion campaign B'));

/** A tree of `n` recipients of one token, two breakdowns each; amounts depend on `round`. */
function treeOf(
  n: number,
  token: Address,
  round: number,
): { file: RewardTreeFile; tree: ReturnType<typeof buildRewardTree> } {
  const rewards = Array.from({ length: n }, (_, i) => {
    const a = 10n ** 15n * BigInt(i + 1);
    const b = BigInt(round * 1000 + (i % 7));
    return {
      recipient: `0x${(i + 1).toString(16).padStart(40, '0')}` as Address,
      token,
      amount: (a + b).toString(),
      breakdowns: [
        { campaignId: campaignA, reason: 'holder', amount: a.toString() },
        { campaignId: campaignB, reason: `lp\t${i % 3}`, amount: b.toString() },
      ],
    };
  });
  const tree = buildRewardTree(rewards.map((r) => ({ user: r.recipient, token, amount: BigInt(r.amount) })));
  return { file: { root: tree.root, chainId: CHAIN_ID, rewards }, tree };
}

describe('chaos: a reward tree ingestion SIGKILLed, a truncated tree (#30)', function () {
  this.timeout(600_000);
  let h: Harness;
  let dir: string;
  let target: ActionTarget;
  let token: Address;

  const treeStatus = async (root: string) =>
    (await h.deps.pg.query('SELECT status, seq FROM reward_trees WHERE chain_id = $1 AND root = $2', [CHAIN_ID, root]))
      .rows[0] as { status: string; seq: string | null } | undefined;
  const storedRows = async (root: string) =>
    Number(
      (await h.deps.pg.query('SELECT count(*) AS n FROM rewards WHERE chain_id = $1 AND root = $2', [CHAIN_ID, root]))
        .rows[0].n,
    );
  const rewardsOf = async (address: string) =>
    (await h.request().get(`/v4/users/${address}/rewards`).query({ chainId: CHAIN_ID, breakdownPage: 0 }).expect(200))
      .body as { rewards: { root: string; amount: string; proofs: Hex[] }[] }[];

  before(async function () {
    dir = await mkdtemp(join(tmpdir(), 'ingestion-trees-'));
    h = await createHarness({ chainIds: [CHAIN_ID], env: { REWARD_TREE_SOURCE: dir } });
    const { devnet, stack } = h.chains[0]!;
    target = { rpcUrl: devnet.rpcUrl, chainId: CHAIN_ID, stack };
    token = stack.tokens.rewards[0]!.address.toLowerCase() as Address;
  });
  after(async () => {
    await h?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('leaves no part of a tree visible when the job is killed while staging it, and the next run stores it whole with the proofs of an independent build', async function () {
    const { file, tree } = treeOf(LEAVES, token, 1);
    await writeRewardTree(dir, file);
    await updateTree({ ...target, root: file.root, mineUntilLive: true });
    expect((await h.runJob('blocks')).status).to.equal('success');

    // The roots job in its own process, SIGKILLed once PostgreSQL shows it copying the entries in.
    const child = spawn(process.execPath, ['--import', 'tsx', 'jobs/cli.ts', 'run', 'roots'], {
      cwd: ROOT_DIR,
      env: childProcessEnv(h.config),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    );
    let copying = false;
    for (let i = 0; i < 3000 && child.exitCode === null && !copying; i++) {
      const { rows } = await h.deps.pg.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE 'COPY staged_leaves%'",
      );
      copying = rows.length > 0;
      if (!copying) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(copying, `the job staged the tree (output: ${output.slice(-500)})`).to.equal(true);
    child.kill('SIGKILL');
    expect(await exited).to.equal('SIGKILL');

    // Nothing of it is visible: not verified, no seq, no rows, no proof material.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await treeStatus(file.root)).to.deep.include({ status: 'pending', seq: null });
    expect(await storedRows(file.root)).to.equal(0);
    const chunks = await h.deps.pg.query('SELECT count(*)::int AS n FROM reward_tree_chunks WHERE root = $1', [
      file.root,
    ]);
    expect(chunks.rows[0].n).to.equal(0);
    await rewardsOf(file.rewards[0]!.recipient);

    // The next run completes it.
    const run = await h.runJob('roots');
    if (run.status !== 'success') expect.fail(`roots ${run.status}`);
    expect(run.result.counts).to.deep.include({ trees_verified: 1, rewards: LEAVES });
    expect(await treeStatus(file.root)).to.deep.include({ status: 'verified' });
    expect(await storedRows(file.root)).to.equal(LEAVES);
    // Served proofs are those of an independent build (domain/rewardTree.ts), for a spread of recipients.
    for (const i of [0, 1, 2, 1023, 1024, 20_000, LEAVES - 2, LEAVES - 1]) {
      const entry = file.rewards[i]!;
      const [chain] = await rewardsOf(entry.recipient);
      const served = chain!.rewards[0]!;
      expect(served.amount, `amount of #${i}`).to.equal(entry.amount);
      expect(served.proofs, `proof of #${i}`).to.deep.equal(tree.proofs.get(rewardTreeKey(entry.recipient, token)));
    }
  });

  it('refuses a truncated document and one over REWARD_TREE_MAX_BYTES, storing nothing, while the previous root goes on serving', async function () {
    // The live root is the 40,000-leaf tree of round 1; its first recipients are those of any round-1 tree.
    const previous = treeOf(3, token, 1);
    const { file } = treeOf(50, token, 2);
    // Posted but not yet live (its dispute period runs): the live root stays the verified one before it.
    await updateTree({ ...target, root: file.root });
    expect((await h.runJob('blocks')).status).to.equal('success');
    const text = JSON.stringify(file);
    await mkdir(join(dir, String(CHAIN_ID)), { recursive: true });
    await writeFile(join(dir, String(CHAIN_ID), `${file.root}.json`), text.slice(0, Math.floor(text.length / 2)));
    const truncated = await h.runJob('roots');
    if (truncated.status !== 'success') expect.fail(`roots ${truncated.status}`);
    expect(truncated.result.counts).to.deep.include({ trees_unavailable: 1, trees_verified: 0 });
    const row = (
      await h.deps.pg.query('SELECT status, error FROM reward_trees WHERE chain_id = $1 AND root = $2', [
        CHAIN_ID,
        file.root,
      ])
    ).rows[0];
    expect(row.status).to.equal('unavailable');
    expect(row.error).to.match(/^invalid reward tree: not JSON \(by byte \d+\)$/);
    expect(await storedRows(file.root)).to.equal(0);
    const served = (await rewardsOf(previous.file.rewards[0]!.recipient))[0]!.rewards[0]!;
    expect(served.amount, 'the previous live root is served').to.equal(previous.file.rewards[0]!.amount);

    // The whole document, but larger than the limit.
    await writeFile(join(dir, String(CHAIN_ID), `${file.root}.json`), text);
    const limited = await runJob(syncRoots, {
      ...h.deps,
      config: { ...h.config, rewardTrees: { ...h.config.rewardTrees, maxBytes: 1024 } },
    });
    if (limited.status !== 'success') expect.fail(`roots ${limited.status}`);
    const error = (await h.deps.pg.query('SELECT error FROM reward_trees WHERE root = $1', [file.root])).rows[0].error;
    expect(error).to.match(/is larger than 1024 bytes \(REWARD_TREE_MAX_BYTES\)/);
    expect(await storedRows(file.root)).to.equal(0);
  });
});
