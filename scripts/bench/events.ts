/**
 * Changes pushed (a script that prints figures, never a timed test): `npm run bench:events` (issue #32).
 * One devnet chain, the real scheduler in a child process (blocks, campaigns, publish; crons every
 * second and follow mode, head polled every 250 ms, as bench:indexer's freshness), the API in another.
 *  1. Freshness: a campaign is created on the chain and timed from its mined receipt until an open
 *     `GET /v4/events` stream delivers its `campaign.created`, and, in the same run, until
 *     `/v4/campaigns` lists it (searchable, bench:indexer's freshness).
 *  2. Many streams: N streams held open on the one API process (a session of a tier that allows them);
 *     the API's RSS before and after, p50/p99 of other requests (`/v4/opportunities`, `/v4/campaigns`)
 *     with no stream and with N, the fan-out (chain event → every stream has it) and freshness again.
 * Uses its own database (rewards_bench_events) and index prefix (bench_events). Linux only (/proc).
 * `npm run bench:events` then runs scripts/bench/webhooks.ts (chain event → webhook delivered).
 * Options: BENCH_EVENTS_SAMPLES=30 BENCH_EVENTS_STREAMS=2000 BENCH_EVENTS_REQUESTS=300 BENCH_EVENTS_FANOUT=10
 */
import http from 'node:http';
import os from 'node:os';
import type { Hex } from 'viem';
import { createCampaigns, getLatestTimestamp } from '../../contracts/actions.js';
import { deployStack } from '../../contracts/deploy.js';
import { findFreePort, startDevnet } from '../../contracts/devnet.js';
import { signSession } from '../../api/identity/jwt.js';
import { createEsClient } from '../../internal/es.js';
import { createLogger } from '../../internal/logger.js';
import { deleteIndices, ensureIndices } from '../../search-mappings/aliases.js';
import { resetDatabase } from '../../test/helpers/database.js';
import { startBenchApi } from './apiProcess.js';
import { envPositiveInt, percentile, benchIndexShape } from './benchParams.js';
import { benchCampaign, benchChainConfig } from './campaignDevnet.js';
import { statusBytes } from './processMemory.js';
import { writeReportSection } from './reportSection.js';
import { commitOf, loadAverage } from './runFacts.js';
import { startSchedulerProcess } from './schedulerProcess.js';

const CHAIN = 31337;
const DATABASE_URL =
  process.env['BENCH_EVENTS_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench_events';
const ES_URL = process.env['ES_URL'] ?? 'http://127.0.0.1:59200';
const PREFIX = 'bench_events';
const SAMPLES = envPositiveInt('BENCH_EVENTS_SAMPLES', 30);
const STREAMS = envPositiveInt('BENCH_EVENTS_STREAMS', 2000);
const REQUESTS = envPositiveInt('BENCH_EVENTS_REQUESTS', 300);
const FANOUT = envPositiveInt('BENCH_EVENTS_FANOUT', 10);
const JWT_SECRET = 'bench-events-jwt-secret-0123456789abcdef0123';
const EVERY_SECOND = '* * * * * *';
const logger = createLogger({ level: 'warn', name: 'bench-events' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REPORT = process.env['BENCH_REPORT_DIR']
  ? `${process.env['BENCH_REPORT_DIR']}/report.md`
  : 'docs/benchmarks/report.md';
/** What the run prints, also written as the report's section. */
const out: string[] = [];
const say = (line: string) => {
  console.log(line);
  out.push(line);
};
const fmt = (sample: number[], unit: 's' | 'ms', digits = 2) => {
  const xs = [...sample].sort((a, b) => a - b);
  return `p50 ${percentile(xs, 50).toFixed(digits)} ${unit}, p95 ${percentile(xs, 95).toFixed(digits)} ${unit}, p99 ${percentile(xs, 99).toFixed(digits)} ${unit}, max ${xs[xs.length - 1]!.toFixed(digits)} ${unit} (${xs.length})`;
};

/** One SSE stream on its own socket: the campaign ids of the events it received, with when. */
function openStream(base: string, path: string, cookie: string) {
  const seen = new Map<string, number>();
  let buffer = '';
  const url = new URL(path, base);
  const req = http.get({
    host: url.hostname,
    port: url.port,
    path: url.pathname + url.search,
    agent: false,
    headers: { accept: 'text/event-stream', cookie },
  });
  const ready = new Promise<void>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /"campaignId":"(0x[0-9a-f]+)"/.exec(block)?.[1];
          if (id && !seen.has(id)) seen.set(id, at);
        }
      });
      resolve();
    });
  });
  return { seen, ready, close: () => req.destroy() };
}

type Stream = ReturnType<typeof openStream>;

async function waitFor(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

async function listed(apiUrl: string, id: string): Promise<boolean> {
  const res = await fetch(`${apiUrl}/v4/campaigns?chainId=${CHAIN}&campaignIds=${id}`);
  const body = (await res.json()) as unknown;
  return res.ok && Array.isArray(body) && body.length > 0;
}

/** Creates one campaign; seconds from its mined receipt to `stream` having it, and to /v4/campaigns listing it. */
async function sample(
  target: { rpcUrl: string; stack: Parameters<typeof benchCampaign>[0]; apiUrl: string },
  streams: Stream[],
  n: number,
): Promise<{ sse: number; searchable: number; fanout: number }> {
  const now = await getLatestTimestamp({ rpcUrl: target.rpcUrl });
  const {
    campaignIds: [raw],
  } = await createCampaigns({
    rpcUrl: target.rpcUrl,
    chainId: CHAIN,
    stack: target.stack,
    campaigns: [benchCampaign(target.stack, now + 3600 + n)],
  });
  const minedAt = performance.now();
  const id = (raw as Hex).toLowerCase();
  let searchable = Number.NaN;
  const polling = (async () => {
    while (!(await listed(target.apiUrl, id))) await sleep(25);
    searchable = (performance.now() - minedAt) / 1000;
  })();
  await waitFor(`campaign ${id} on every stream`, () => streams.every((s) => s.seen.has(id)));
  await polling;
  const times = streams.map((s) => (s.seen.get(id)! - minedAt) / 1000);
  return { sse: times[0]!, searchable, fanout: Math.max(...times) };
}

/** p50/p99 of sequential GETs of two ordinary reads. */
async function otherRequests(apiUrl: string): Promise<number[]> {
  const paths = ['/v4/opportunities?items=20', `/v4/campaigns?chainId=${CHAIN}&items=20`];
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const res = await fetch(apiUrl + paths[i % paths.length]!);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${paths[i % paths.length]} answered ${res.status}`);
    ms.push(performance.now() - t0);
  }
  return ms;
}

async function main(): Promise<void> {
  const commit = commitOf();
  const started = `${new Date().toISOString()}, commit ${commit}, node ${process.version}; machine ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown'}, load average ${loadAverage()} at the start`;
  console.log(`events benchmark — ${started}`);
  const devnet = await startDevnet({ chainId: CHAIN, port: await findFreePort() });
  const stops: (() => Promise<unknown>)[] = [() => devnet.stop()];
  try {
    const stack = await deployStack({ rpcUrl: devnet.rpcUrl, chainId: CHAIN });
    await resetDatabase(DATABASE_URL);
    const es = createEsClient({ node: ES_URL, requestTimeoutMs: 30_000 });
    await deleteIndices({ es, prefix: PREFIX });
    await ensureIndices({ es, prefix: PREFIX, logger, shape: benchIndexShape() });
    stops.unshift(() => deleteIndices({ es, prefix: PREFIX }).finally(() => es.close()));
    const env = {
      LOG_LEVEL: 'warn',
      DATABASE_URL,
      ES_URL,
      ES_INDEX_PREFIX: PREFIX,
      CHAINS: JSON.stringify([benchChainConfig(devnet.rpcUrl, CHAIN, stack)]),
    };
    const api = await startBenchApi(
      {
        ...env,
        NODE_ENV: 'production',
        JWT_SECRET,
        BACK_OFFICE_TOKEN: 'bench-events-back-office-token-0123456789',
        RATE_LIMITS: '100000000,100000000,100000000,100000000',
        // Every stream comes from this one address, and the bench holds STREAMS of them (#43 F5 bounds).
        EVENTS_STREAMS_PER_ADDRESS: String(STREAMS + 10),
        EVENTS_STREAMS_MAX: String(STREAMS + 10),
      },
      logger,
    );
    stops.unshift(() => api.close());
    const scheduler = startSchedulerProcess({
      ...env,
      NODE_ENV: 'test',
      SCHEDULER_JOBS: 'blocks,campaigns,publish',
      FOLLOW_POLL_MS: '250',
      JOB_BLOCKS_CRON: EVERY_SECOND,
      JOB_CAMPAIGNS_CRON: EVERY_SECOND,
      JOB_PUBLISH_CRON: EVERY_SECOND,
    });
    stops.unshift(() => scheduler.stop());
    const target = { rpcUrl: devnet.rpcUrl, stack, apiUrl: api.url };
    // A session whose tier allows every stream this process holds (5 × (tier + 1), README "Events").
    const cookie = `jwt=${signSession({ secret: JWT_SECRET, address: `0x${'b'.repeat(40)}`, tier: Math.ceil(STREAMS / 5) }).token}`;
    const path = `/v4/events?type=campaign.created&chainId=${CHAIN}`;

    const one = [openStream(api.url, path, cookie)];
    await one[0]!.ready;
    stops.unshift(async () => one[0]!.close());
    let n = 0;
    await sample(target, one, n++); // the scheduler is up and indexing
    const alone = [];
    for (let i = 0; i < SAMPLES; i++) alone.push(await sample(target, one, n++));
    say('\n1. chain event → delivered, one stream open (follow mode, head polled every 250 ms)');
    say(
      `   SSE stream:           ${fmt(
        alone.map((s) => s.sse),
        's',
      )}`,
    );
    say(
      `   searchable (/v4/campaigns lists it): ${fmt(
        alone.map((s) => s.searchable),
        's',
      )}`,
    );

    const quiet = await otherRequests(api.url);
    const rss0 = statusBytes(api.pid, 'VmRSS') ?? 0;
    const many: Stream[] = [];
    stops.unshift(async () => many.forEach((s) => s.close()));
    const t0 = performance.now();
    for (let i = 0; i < STREAMS; i += 100) {
      const batch = Array.from({ length: Math.min(100, STREAMS - i) }, () => openStream(api.url, path, cookie));
      many.push(...batch);
      await Promise.all(batch.map((s) => s.ready));
    }
    const openSeconds = (performance.now() - t0) / 1000;
    await sleep(2000);
    const rss1 = statusBytes(api.pid, 'VmRSS') ?? 0;
    const busy = await otherRequests(api.url);
    const withMany = [];
    for (let i = 0; i < FANOUT; i++) withMany.push(await sample(target, many, n++));
    const rss2 = statusBytes(api.pid, 'VmRSS') ?? 0;
    const mib = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;
    say(`\n2. ${STREAMS} streams held by one API process (opened in ${openSeconds.toFixed(1)} s)`);
    say(
      `   API RSS: ${mib(rss0)} before, ${mib(rss1)} with the streams open, ${mib(rss2)} after ${FANOUT} events fanned out (${((rss1 - rss0) / STREAMS / 1024).toFixed(1)} KiB a stream)`,
    );
    say(`   other requests, no stream:         ${fmt(quiet, 'ms', 1)}`);
    say(`   other requests, ${STREAMS} streams open: ${fmt(busy, 'ms', 1)}`);
    say(
      `   chain event → first stream:  ${fmt(
        withMany.map((s) => s.sse),
        's',
      )}`,
    );
    say(
      `   chain event → every stream:  ${fmt(
        withMany.map((s) => s.fanout),
        's',
      )}`,
    );
    say(
      `   searchable meanwhile:        ${fmt(
        withMany.map((s) => s.searchable),
        's',
      )}`,
    );
    writeReportSection(
      REPORT,
      'Changes pushed (bench:events)',
      [
        `Measured ${started}, load average ${loadAverage()} at the end (2 cores shared with other work: figures are noisy and pessimistic).`,
        '',
        '```',
        ...out.map((l) => l.replace(/^\n/, '')),
        '```',
        '',
        'How: one devnet, the scheduler in its own process (blocks, campaigns, publish; crons every second and follow mode,',
        'head polled every 250 ms), the API in another. Times run from the mined receipt of a NewCampaign to the',
        '`campaign.created` event on the stream(s), and to `/v4/campaigns` listing the campaign. Streams hold a session',
        'whose tier allows them; "other requests" are sequential `/v4/opportunities` and `/v4/campaigns` pages.',
      ].join('\n'),
    );
  } finally {
    for (const stop of stops) await stop().catch((e) => console.error(`cleanup: ${String(e)}`));
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
