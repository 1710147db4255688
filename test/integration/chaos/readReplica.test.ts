import { expect } from 'chai';
import pg from 'pg';
import { startApiServer, type ApiServer } from '../../../api/server.js';
import { createLogger } from '../../../internal/logger.js';
import { chaosSettings } from '../../helpers/chaosSettings.js';
import { resetDatabase } from '../../helpers/database.js';
import { startPrivateReplicaPair, type PrivateReplicaPair } from '../../helpers/privateReplica.js';
import { testConfig } from '../../helpers/testConfig.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CHAIN_ID = 31337;
const MAX_LAG_MS = 1500;
const CHECK_MS = 100;
/** At most this many writes per case: one list page (items=100) shows every token of a case. */
const WRITES_PER_CASE = 90;
/** Pause between writes for a case lasting `seconds`, keeping it within WRITES_PER_CASE. */
const writeGapMs = (seconds: number) => Math.max(50, Math.ceil((seconds * 1000) / (WRITES_PER_CASE - 10)));

type Read = { startedAt: number; status: number; symbols: string[] };

describe('chaos: the PostgreSQL read replica stopped, then lagging (private primary + replica)', function () {
  let pair: PrivateReplicaPair;
  let api: ApiServer;
  let primary: pg.Pool;
  let replica: pg.Pool;
  let written = 0;

  /** A token row written on the primary, its symbol starting with `mark` (one per case); resolves with the symbol and the time its commit returned. */
  const writeToken = async (mark: string) => {
    const symbol = `${mark}${written++}`;
    const address = `0x${written.toString(16).padStart(40, '0')}`;
    await primary.query(
      `INSERT INTO tokens (id, chain_id, address, symbol, decimals, verified) VALUES ($1, $2, $3, $4, 18, true)`,
      [String(900_000 + written), CHAIN_ID, address, symbol],
    );
    return { symbol, at: Date.now() };
  };
  /** GET /v4/tokens of one case's tokens: a read moved to the replica. */
  const read = async (mark: string): Promise<Read> => {
    const startedAt = Date.now();
    const res = await fetch(`${api.url}/v4/tokens?chainId=${CHAIN_ID}&search=${mark}&items=100`);
    const body = (await res.json()) as { symbol: string }[];
    return { startedAt, status: res.status, symbols: res.status === 200 ? body.map((t) => t.symbol) : [] };
  };
  const replicaState = async () =>
    ((await (await fetch(`${api.url}/v4/health`)).json()) as { postgresReplica: Record<string, unknown> })
      .postgresReplica;
  const waitFor = async (what: string, ok: () => Promise<boolean>, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
      await sleep(100);
    }
  };
  /** Statements of the API's replica pool on tokens (the list, then its prices) whose last one started at or after `since` (replica clock, same host). */
  const replicaTokenReads = async (since: Date) => {
    const { rows } = await replica.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity
       WHERE application_name = 'rewards-api-replica' AND query_start >= $1 AND query LIKE '%token%'`,
      [since],
    );
    return Number(rows[0]!.n);
  };
  const replicated = (symbol: string) => async () =>
    (await replica.query('SELECT 1 FROM tokens WHERE symbol = $1', [symbol])).rowCount === 1;

  before(async function () {
    this.timeout(300_000);
    pair = await startPrivateReplicaPair({ prepare: (url) => resetDatabase(url) });
    primary = new pg.Pool({ connectionString: pair.primaryUrl, max: 2 });
    replica = new pg.Pool({ connectionString: pair.replicaUrl, max: 2 });
    replica.on('error', () => {});
    const config = testConfig({
      chains: [
        {
          id: CHAIN_ID,
          name: 'Replica devnet',
          rpcUrl: 'http://127.0.0.1:9',
          distributionCreator: '0x1111111111111111111111111111111111111111',
          distributor: '0x2222222222222222222222222222222222222222',
        } as never,
      ],
      esIndexPrefix: 'replica-chaos-unused',
      env: {
        DATABASE_URL: pair.primaryUrl,
        // A password (ignored by trust auth) that must never show in /v4/health.
        DATABASE_READ_URL: pair.replicaUrl.replace('postgres@', 'postgres:s3cretpass@'),
        DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
        DATABASE_READ_LAG_CHECK_MS: String(CHECK_MS),
        HOST: '127.0.0.1',
        PORT: '0',
      },
    });
    api = await startApiServer({ config, logger: createLogger({ level: 'silent', name: 'chaos-replica-api' }) });
    await waitFor('the replica serves reads', async () => (await replicaState())['serving'] === 'replica');
  });

  after(async function () {
    this.timeout(120_000);
    await api?.close();
    await Promise.allSettled([primary?.end(), replica?.end()]);
    await pair?.close();
  });

  it('serves a moved read (GET /v4/tokens) from the replica while it is healthy', async () => {
    const { symbol } = await writeToken('RPLA');
    await waitFor('replication of the token', replicated(symbol));
    const since = (await replica.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
    const answer = await read('RPLA');
    expect(answer).to.include({ status: 200 });
    expect(answer.symbols).to.include(symbol);
    expect(await replicaTokenReads(since), "the replica ran the API's tokens query").to.be.above(0);
  });

  it(`replay paused ${chaosSettings.replicaLagSeconds} s: no read answers staler than the bound, the primary answers once it is exceeded, the replica again once it catches up`, async function () {
    this.timeout(120_000 + chaosSettings.replicaLagSeconds * 3000);
    // A fresh last-replayed commit, so the pause is measured from now.
    await waitFor('replication of a fresh commit', replicated((await writeToken('RPLW')).symbol));
    await replica.query('SELECT pg_wal_replay_pause()');
    const pausedAt = Date.now();
    const writes: { symbol: string; at: number }[] = [];
    const reads: Read[] = [];
    while (Date.now() - pausedAt < chaosSettings.replicaLagSeconds * 1000) {
      writes.push(await writeToken('RPLB'));
      reads.push(await read('RPLB'));
      await sleep(writeGapMs(chaosSettings.replicaLagSeconds));
    }
    const since = (await replica.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
    const during = await read('RPLB');
    const state = await replicaState();
    const replicaReadsWhileLagging = await replicaTokenReads(since);
    await replica.query('SELECT pg_wal_replay_resume()');
    const resumedAt = Date.now();
    await waitFor('the replica serving again', async () => (await replicaState())['serving'] === 'replica');
    const backAfterMs = Date.now() - resumedAt;
    const last = writes[writes.length - 1]!;
    await waitFor('replication of the last write', replicated(last.symbol));
    const since2 = (await replica.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
    const after = await read('RPLB');

    expect(reads.filter((r) => r.status !== 200).slice(0, 3), 'every read answers 200').to.deep.equal([]);
    // The rule: a write committed more than the bound before a read started is in its answer.
    const stale = reads.flatMap((r) =>
      writes
        .filter((w) => w.at + MAX_LAG_MS < r.startedAt && !r.symbols.includes(w.symbol))
        .map((w) => ({ symbol: w.symbol, lateByMs: r.startedAt - w.at })),
    );
    expect(stale.slice(0, 3), 'reads missing a write older than the bound').to.deep.equal([]);
    const servedStale = reads.filter((r) => writes.some((w) => w.at < r.startedAt && !r.symbols.includes(w.symbol)));
    expect(state).to.include({ serving: 'primary' });
    expect(['lagging', 'check-overdue']).to.include(state['reason']);
    expect(during.symbols, 'a read during the lag sees the last write').to.include(last.symbol);
    expect(replicaReadsWhileLagging, 'the lagging replica ran no tokens query').to.equal(0);
    expect(after.symbols).to.include(last.symbol);
    expect(await replicaTokenReads(since2), 'the replica answers again once caught up').to.be.above(0);
    console.log(
      `    replay paused ${((resumedAt - pausedAt) / 1000).toFixed(1)} s (bound ${MAX_LAG_MS} ms): ${writes.length} writes, ${reads.length} reads, ${servedStale.length} within the bound without the latest write, 0 beyond it; replica serving again ${backAfterMs} ms after the resume`,
    );
  });

  it(`replica stopped ${chaosSettings.replicaOutageSeconds} s: reads answer 200 from the primary with every write, health says why, the replica serves again after its restart`, async function () {
    this.timeout(180_000 + chaosSettings.replicaOutageSeconds * 3000);
    const reads: Read[] = [];
    const writes: { symbol: string; at: number }[] = [];
    let loading = true;
    const loop = (async () => {
      while (loading) {
        reads.push(await read('RPLC'));
        await sleep(20);
      }
    })();
    await sleep(300);
    await pair.stopReplica();
    const downAt = Date.now();
    while (Date.now() - downAt < chaosSettings.replicaOutageSeconds * 1000) {
      writes.push(await writeToken('RPLC'));
      await sleep(writeGapMs(chaosSettings.replicaOutageSeconds));
    }
    const state = await replicaState();
    await pair.startReplica();
    const upAt = Date.now();
    await waitFor('the replica serving again', async () => (await replicaState())['serving'] === 'replica');
    const backAfterMs = Date.now() - upAt;
    loading = false;
    await loop;
    const since = (await replica.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
    const after = await read('RPLC');

    expect(reads.filter((r) => r.status !== 200).slice(0, 3), 'every read answers 200').to.deep.equal([]);
    const duringOutage = reads.filter((r) => r.startedAt > downAt + 200 && r.startedAt < upAt);
    expect(duringOutage.length, 'reads during the outage').to.be.above(5);
    const missing = duringOutage.filter((r) => writes.some((w) => w.at < r.startedAt && !r.symbols.includes(w.symbol)));
    expect(missing.length, 'reads during the outage missing an earlier write (the primary answers them)').to.equal(0);
    expect(state).to.include({ serving: 'primary' });
    expect(['down', 'query-failed', 'check-overdue']).to.include(state['reason']);
    expect(JSON.stringify(state)).not.to.contain('s3cretpass');
    expect(after.symbols).to.include(writes[writes.length - 1]!.symbol);
    expect(await replicaTokenReads(since), 'the restarted replica answers again').to.be.above(0);
    const metrics = await (await fetch(`${api.url}/metrics`)).text();
    expect(metrics).to.match(/^rewards_pg_replica_serving_reads 1$/m);
    console.log(
      `    replica down ${((upAt - downAt) / 1000).toFixed(1)} s: ${duringOutage.length} reads all 200 from the primary, ${state['retriedOnPrimary']} retried there after failing on the replica; serving again ${backAfterMs} ms after the restart`,
    );
  });
});
