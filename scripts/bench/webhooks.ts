/**
 * Chain event → webhook delivered (issue #32; a script that prints figures, never a timed test):
 * `npm run bench:webhooks`. On a fresh devnet with the scheduler in follow mode (blocks, campaigns
 * and webhooks; head polled every BENCH_FOLLOW_POLL_MS), each sample creates a campaign on chain
 * and times from its mined receipt until every webhook subscribed to `campaign.created` has
 * received the delivery on a loopback receiver. Run with 1 and BENCH_WEBHOOKS webhooks (one
 * receiver each) to show how the cost grows with the number of webhooks; prints p50/p95/max.
 * Uses its own database (rewards_bench) and index prefix (bench-webhooks).
 * `npm run bench:events` runs it after scripts/bench/events.ts; both write their section of
 * docs/benchmarks/report.md.
 * Options: BENCH_WEBHOOK_SAMPLES=20 BENCH_WEBHOOKS=20 BENCH_FOLLOW_POLL_MS=250
 */
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../contracts/actions.js';
import { deployStack } from '../../contracts/deploy.js';
import { findFreePort, startDevnet } from '../../contracts/devnet.js';
import { createWebhook } from '../../api/routes/webhooks/repo.js';
import { generateWebhookSecret } from '../../domain/webhookSignature.js';
import { loadConfig } from '../../internal/config.js';
import { createLogger } from '../../internal/logger.js';
import { createJobDeps } from '../../jobs/deps.js';
import { findJob } from '../../jobs/registry.js';
import { startScheduler } from '../../jobs/scheduler.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/helpers/webhookReceiver.js';
import { envPositiveInt, percentile } from './benchParams.js';
import { benchChainConfig } from './campaignDevnet.js';
import { writeReportSection } from './reportSection.js';
import { commitOf, loadAverage } from './runFacts.js';

const DATABASE_URL = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench';
const PREFIX = 'bench-webhooks';
const samples = envPositiveInt('BENCH_WEBHOOK_SAMPLES', 20);
const manyWebhooks = envPositiveInt('BENCH_WEBHOOKS', 20);
const followPollMs = envPositiveInt('BENCH_FOLLOW_POLL_MS', 250);
const logger = createLogger({ level: process.env['LOG_LEVEL'] ?? 'warn', name: 'bench' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const REPORT = process.env['BENCH_REPORT_DIR']
  ? `${process.env['BENCH_REPORT_DIR']}/report.md`
  : 'docs/benchmarks/report.md';
const commit = commitOf();
const started = `${new Date().toISOString()}, commit ${commit}, node ${process.version}; load average ${loadAverage()} at the start`;
const figures: string[] = [];
console.log(
  `webhook delivery benchmark — ${started}: ${samples} campaigns per size, follow mode (head polled every ${followPollMs} ms), loopback receivers`,
);
const devnet = await startDevnet({ chainId: 31337, port: await findFreePort() });
const receivers: WebhookReceiver[] = [];
try {
  const stack = await deployStack({ rpcUrl: devnet.rpcUrl, chainId: 31337 });
  const target = { rpcUrl: devnet.rpcUrl, chainId: 31337, stack };
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL,
    ES_INDEX_PREFIX: PREFIX,
    CHAINS: JSON.stringify([benchChainConfig(devnet.rpcUrl, 31337, stack)]),
    FOLLOW_POLL_MS: String(followPollMs),
    WEBHOOKS_ALLOW_PRIVATE: 'loopback',
  });
  await resetDatabase(DATABASE_URL);
  const deps = createJobDeps(config, logger, new AbortController().signal);
  await deleteIndices({ es: deps.es, prefix: PREFIX });
  await ensureIndices({ es: deps.es, prefix: PREFIX, logger });
  const scheduler = startScheduler({
    config,
    logger,
    jobs: ['blocks', 'campaigns', 'webhooks'].map((n) => findJob(n)!),
  });
  await scheduler.ready;
  const rewardToken = stack.tokens.rewards[0]!.address;
  for (const size of [...new Set([1, manyWebhooks])]) {
    while (receivers.length < size) {
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      await createWebhook(
        deps.pg,
        '0x00000000000000000000000000000000000000b0',
        { url: receiver.url, secret: generateWebhookSecret(), types: ['campaign.created'] },
        1000,
      );
    }
    const seconds: number[] = [];
    for (let i = 0; i < samples; i++) {
      const seen = receivers.map((r) => r.accepted.length);
      const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
      await createCampaigns({
        ...target,
        campaigns: [
          {
            rewardToken,
            amount: 10n ** 21n,
            campaignType: 1,
            startTimestamp: now + 60,
            duration: 86_400,
            campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
          },
        ],
      });
      const minedAt = performance.now();
      for (const deadline = Date.now() + 60_000; receivers.some((r, k) => r.accepted.length <= seen[k]!); ) {
        if (Date.now() > deadline) throw new Error(`campaign ${i}: not delivered to every webhook within 60 s`);
        await sleep(5);
      }
      seconds.push((performance.now() - minedAt) / 1000);
    }
    seconds.sort((a, b) => a - b);
    const duplicates = receivers.reduce((n, r) => n + r.duplicates(), 0);
    const line = `campaign created (mined) → delivered to all of ${size} webhook(s) (${seconds.length} campaigns): p50 ${percentile(seconds, 50).toFixed(2)} s, p95 ${percentile(seconds, 95).toFixed(2)} s, max ${seconds.at(-1)!.toFixed(2)} s; duplicates ${duplicates}`;
    console.log(line);
    figures.push(line);
  }
  await scheduler.stop();
  await deps.close();
  writeReportSection(
    REPORT,
    'Webhooks delivered (bench:events)',
    [
      `Measured ${started}, load average ${loadAverage()} at the end (2 cores shared with other work: figures are noisy).`,
      '',
      '```',
      ...figures,
      '```',
      '',
      `How: one devnet, the scheduler in this process (blocks, campaigns, webhooks; follow mode, head polled every ${followPollMs} ms),`,
      'each webhook subscribed to `campaign.created` with its own loopback receiver; times run from the mined receipt of a',
      'NewCampaign until every receiver has the signed delivery; duplicates are deliveries of an event id a receiver already had.',
    ].join('\n'),
  );
} catch (error) {
  console.error(`benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  for (const r of receivers) await r.close();
  await devnet.stop();
}
process.exit();
