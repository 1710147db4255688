/**
 * Peer comparison (issue #9), a script that prints figures: `npm run bench:peer`.
 * One devnet holds N NewCampaign logs; in the same run, on the same machine and PostgreSQL server:
 *  - raw getLogs + decode (upper bound, also warms the devnet for both indexers);
 *  - our blocks + campaigns jobs: → PostgreSQL, and end to end (→ PostgreSQL → searchable in Elasticsearch);
 *  - Ponder (bench/peer-ponder, `ponder start`, its Postgres store in its own fresh database, no cache):
 *    startup measured apart, then → PostgreSQL;
 * and the ratio ours / Ponder, both to PostgreSQL (like-for-like), goal ≥ 3. Both "→ PostgreSQL" clocks
 * stop at the same poll of the table's row count (scripts/bench/waitForRowCount.ts).
 * Options: BENCH_PEER_EVENTS=100000  BENCH_PEER_DATABASE_URL  BENCH_PEER_PONDER_DATABASE_URL
 *   BENCH_PEER_TIMEOUT_S=3600 (per indexer)
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createChainClients } from '../../internal/rpc.js';
import { loadConfig } from '../../internal/config.js';
import { createLogger } from '../../internal/logger.js';
import { benchChainConfig, CAMPAIGNS_PER_TX, startCampaignDevnet } from './campaignDevnet.js';
import { runOurIndexer } from './peerOurs.js';
import { ensurePonderInstalled, runPonder } from './peerPonder.js';
import { rawGetLogs } from './rawGetLogs.js';

const EVENTS = Number(process.env['BENCH_PEER_EVENTS'] ?? 100_000);
const DATABASE_URL = process.env['BENCH_PEER_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/rewards_bench_peer';
const PONDER_DATABASE_URL =
  process.env['BENCH_PEER_PONDER_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:55432/ponder_bench';
const TIMEOUT_MS = Number(process.env['BENCH_PEER_TIMEOUT_S'] ?? 3600) * 1000;
const ES_PREFIX = 'benchpeer';
const PONDER_LOG = fileURLToPath(new URL('../../.data/bench/peer-ponder.log', import.meta.url));
const CHAIN_ID = 31337;
// Ponder treats the last 30 blocks of an unknown chain as unfinalized (ponder src/utils/finality.ts) and
// indexes them block by block in its realtime phase; empty blocks on top put every log in its backfill.
const EXTRA_BLOCKS = 64;
const logger = createLogger({ level: process.env['LOG_LEVEL'] ?? 'warn', name: 'bench-peer' });

const loadAvg = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const rate = (n: number, seconds: number) => `${(n / seconds).toFixed(0)} campaigns/s (${seconds.toFixed(2)} s)`;

async function postgresVersion(databaseUrl: string): Promise<string> {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  if (!Number.isInteger(EVENTS) || EVENTS < 1)
    throw new Error(`BENCH_PEER_EVENTS must be a positive integer, got ${process.env['BENCH_PEER_EVENTS']}`);
  console.log(
    `peer benchmark (ours vs Ponder) — ${new Date().toISOString()}, node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, load avg at the start ${loadAvg()}`,
  );
  const ponder = await ensurePonderInstalled();
  console.log(
    `versions: PostgreSQL ${await postgresVersion(DATABASE_URL)}, ponder ${ponder.version} (${ponder.installSeconds ? `npm ci ${ponder.installSeconds.toFixed(1)} s, not timed below` : 'already installed'})`,
  );

  const { devnet, stack, createSeconds, head } = await startCampaignDevnet({
    chainId: CHAIN_ID,
    campaigns: EVENTS,
    extraBlocks: EXTRA_BLOCKS,
  });
  try {
    console.log(
      `devnet: ${EVENTS} NewCampaign events created in ${createSeconds.toFixed(1)} s (${Math.ceil(EVENTS / CAMPAIGNS_PER_TX)} txs of ${CAMPAIGNS_PER_TX}), head block ${head}`,
    );
    const { client } = createChainClients(
      loadConfig({
        NODE_ENV: 'test',
        DATABASE_URL,
        CHAINS: JSON.stringify([benchChainConfig(devnet.rpcUrl, CHAIN_ID, stack)]),
      }),
    ).get(CHAIN_ID)!;
    const raw = await rawGetLogs({ client, chainId: CHAIN_ID, address: stack.distributionCreator, head });
    if (raw.decoded !== EVENTS) throw new Error(`raw getLogs decoded ${raw.decoded} campaigns, expected ${EVENTS}`);
    console.log(`  raw getLogs+decode (no storage, warms the devnet): ${rate(EVENTS, raw.seconds)}`);

    const ours = await runOurIndexer({
      rpcUrl: devnet.rpcUrl,
      chainId: CHAIN_ID,
      stack,
      expected: EVENTS,
      databaseUrl: DATABASE_URL,
      esPrefix: ES_PREFIX,
      logger,
    });
    console.log(
      `  ours → PostgreSQL (blocks job ${ours.blocksSeconds.toFixed(2)} s + campaigns job until all rows are in): ${rate(EVENTS, ours.toPostgresSeconds)}`,
    );
    console.log(
      `  ours end to end (→ PostgreSQL → searchable in Elasticsearch): ${rate(EVENTS, ours.endToEndSeconds)}`,
    );

    const peer = await runPonder({
      rpcUrl: devnet.rpcUrl,
      chainId: CHAIN_ID,
      distributionCreator: stack.distributionCreator,
      databaseUrl: PONDER_DATABASE_URL,
      expected: EVENTS,
      timeoutMs: TIMEOUT_MS,
      logFile: PONDER_LOG,
    });
    console.log(
      `  ponder ${ponder.version} startup (spawn → first backfill log: build, schema, database setup; not in its rate): ${peer.startupSeconds.toFixed(2)} s`,
    );
    console.log(
      `  ponder → PostgreSQL (backfill start until all rows are in): ${rate(EVENTS, peer.toPostgresSeconds)}; its log: .data/bench/peer-ponder.log`,
    );
    console.log(
      `  ponder including startup: ${rate(EVENTS, peer.startupSeconds + peer.toPostgresSeconds)}${peer.backfillCompletedSeconds === undefined ? '' : `; it logged "Completed backfill indexing" at ${peer.backfillCompletedSeconds.toFixed(2)} s`}`,
    );

    const ratio = peer.toPostgresSeconds / ours.toPostgresSeconds;
    console.log(
      `ratio ours / ponder, both → PostgreSQL (like-for-like): ${ratio.toFixed(2)}x (goal ≥ 3x: ${ratio >= 3 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `ratio ours end to end (incl. Elasticsearch, which Ponder does not do) / ponder → PostgreSQL: ${(peer.toPostgresSeconds / ours.endToEndSeconds).toFixed(2)}x`,
    );
    console.log(
      `load avg at the end: ${loadAvg()} (2 shared CPUs: absolute rates are noisy; the ratio, measured in the same run, less so)`,
    );
  } finally {
    await devnet.stop();
  }
}

try {
  await main();
} catch (error) {
  console.error(`peer benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
process.exit(0);
