/**
 * Read-your-claim (a script that prints figures, never a timed test): `npm run bench:claim`.
 * On a fresh devnet with the scheduler running (blocks, campaigns, roots, claims, publish every
 * second, follow mode as BENCH_FOLLOW_POLL_MS says; 0: crons alone), each sample publishes a new
 * reward tree, waits until `/v4/users/{address}/rewards` serves it, claims the recipient's whole
 * amount on chain and times from the mined `Claimed` event (the receipt) until the same route
 * answers that amount as claimed. Prints p50/p95.
 * Uses its own database (rewards_bench) and index prefix (bench-claim).
 * Options: BENCH_CLAIM_SAMPLES=20 BENCH_FOLLOW_POLL_MS=250
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import supertest from 'supertest';
import { createApp } from '../../api/app.js';
import {
  claim,
  createCampaigns,
  encodeErc20CampaignData,
  getLatestTimestamp,
  updateTree,
} from '../../contracts/actions.js';
import { deployStack } from '../../contracts/deploy.js';
import { findFreePort, startDevnet } from '../../contracts/devnet.js';
import { buildRewardTreeFile } from '../../contracts/rewardTrees/buildRewardTreeFile.js';
import { writeRewardTree } from '../../contracts/rewardTrees/writeRewardTree.js';
import { buildRewardTree } from '../../domain/rewardTree.js';
import { loadConfig } from '../../internal/config.js';
import { createLogger } from '../../internal/logger.js';
import { createPgPool } from '../../internal/pg.js';
import { createJobDeps } from '../../jobs/deps.js';
import { findJob } from '../../jobs/registry.js';
import { startScheduler } from '../../jobs/scheduler.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { percentile, benchIndexShape } from './benchParams.js';
import { benchChainConfig } from './campaignDevnet.js';

const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench';
const PREFIX = 'bench-claim';
const samples = Number(process.env['BENCH_CLAIM_SAMPLES'] ?? 20);
const followPollMs = Number(process.env['BENCH_FOLLOW_POLL_MS'] ?? 250);
const RECIPIENT: Address = '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc';
const logger = createLogger({ level: process.env['LOG_LEVEL'] ?? 'warn', name: 'bench' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

console.log(
  `claim freshness benchmark — ${new Date().toISOString()}, node ${process.version}: ${samples} claims, ${followPollMs ? `follow mode (head polled every ${followPollMs} ms)` : 'crons alone (every second)'}`,
);
const devnet = await startDevnet({ chainId: 31337, port: await findFreePort() });
try {
  const stack = await deployStack({ rpcUrl: devnet.rpcUrl, chainId: 31337 });
  const target = { rpcUrl: devnet.rpcUrl, chainId: 31337, stack };
  const treeDir = mkdtempSync(join(tmpdir(), 'bench-trees-'));
  const every = '* * * * * *';
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL,
    ES_INDEX_PREFIX: PREFIX,
    CHAINS: JSON.stringify([benchChainConfig(devnet.rpcUrl, 31337, stack)]),
    REWARD_TREE_SOURCE: treeDir,
    FOLLOW_POLL_MS: String(followPollMs),
    JOB_BLOCKS_CRON: every,
    JOB_CAMPAIGNS_CRON: every,
    JOB_ROOTS_CRON: every,
    JOB_CLAIMS_CRON: every,
    JOB_PUBLISH_CRON: every,
  });
  await resetDatabase(DATABASE_URL);
  const deps = createJobDeps(config, logger, new AbortController().signal);
  await deleteIndices({ es: deps.es, prefix: PREFIX });
  await ensureIndices({ es: deps.es, prefix: PREFIX, logger, shape: benchIndexShape() });
  const apiPg = createPgPool({ connectionString: DATABASE_URL, applicationName: 'bench-api', readOnly: true });
  const app = createApp({ config, logger, pg: apiPg, es: deps.es, rpc: deps.rpc, jobsPg: deps.pg });
  const request = supertest(app.callback());
  const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
  const rewardToken = stack.tokens.rewards[0]!.address;
  const [campaignId] = (
    await createCampaigns({
      ...target,
      campaigns: [
        {
          rewardToken,
          amount: 10n ** 21n,
          campaignType: 1,
          startTimestamp: now - 60,
          duration: 30 * 86_400,
          campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
        },
      ],
    })
  ).campaignIds;
  const scheduler = startScheduler({
    config,
    logger,
    jobs: ['blocks', 'campaigns', 'roots', 'claims', 'publish'].map((n) => findJob(n)!),
  });
  await scheduler.ready;
  /** The recipient's served reward in the reward token: amount and claimed. */
  const served = async () => {
    const res = await request.get(`/v4/users/${RECIPIENT}/rewards?chainId=31337&breakdownPage=0`);
    if (!Array.isArray(res.body))
      throw new Error(`rewards answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    const reward = (res.body as { rewards: { token: { address: string }; amount: string; claimed: string }[] }[])
      .flatMap((c) => c.rewards)
      .find((r) => r.token.address.toLowerCase() === rewardToken.toLowerCase());
    return reward ? { amount: reward.amount, claimed: reward.claimed } : null;
  };
  const waitUntil = async (what: string, ok: () => Promise<boolean>) => {
    for (const deadline = Date.now() + 60_000; !(await ok()); await sleep(20))
      if (Date.now() > deadline) throw new Error(`${what}: not served within 60 s`);
  };
  const seconds: number[] = [];
  for (let i = 1; i <= samples; i++) {
    const amount = 10n ** 18n * BigInt(i);
    const file = buildRewardTreeFile({
      chainId: 31337,
      rewards: [
        {
          recipient: RECIPIENT,
          token: rewardToken,
          breakdowns: [{ campaignId: campaignId!, reason: 'holder', amount }],
        },
      ],
    });
    await writeRewardTree(treeDir, file);
    await updateTree({ ...target, root: file.root, mineUntilLive: true });
    await waitUntil(`tree ${i}`, async () => (await served())?.amount === amount.toString());
    const tree = buildRewardTree([{ user: RECIPIENT, token: rewardToken, amount }]);
    await claim({
      ...target,
      claims: [
        {
          user: RECIPIENT,
          token: rewardToken,
          amount,
          proof: tree.proofs.get(`${RECIPIENT}-${rewardToken}`.toLowerCase()) ?? [],
        },
      ],
    });
    const minedAt = performance.now();
    await waitUntil(`claim ${i}`, async () => (await served())?.claimed === amount.toString());
    seconds.push((performance.now() - minedAt) / 1000);
  }
  await scheduler.stop();
  await Promise.allSettled([apiPg.end(), deps.close()]);
  seconds.sort((a, b) => a - b);
  console.log(
    `Claimed → /v4/users/{address}/rewards shows it claimed (${seconds.length} claims): p50 ${percentile(seconds, 50).toFixed(2)} s, p95 ${percentile(seconds, 95).toFixed(2)} s`,
  );
} catch (error) {
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await devnet.stop();
}
process.exit();
