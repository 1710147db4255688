/**
 * Local Hardhat devnets for tests and the demo seeder: one `hardhat node` process per devnet, bound to
 * 127.0.0.1, chain id chosen through DEVNET_CHAIN_ID (read by hardhat.config.cjs).
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The .bin entry runs hardhat in this very process (no npx wrapper), so killing its pid stops the node.
const hardhatBin = join(repoRoot, 'node_modules', '.bin', 'hardhat');

/** Ports reserved for devnets on this machine. */
export const DEVNET_PORT_RANGE = { from: 18600, to: 18699 } as const;

export type StartDevnetParams = {
  chainId: number;
  port: number;
  /** Appends the node's stdout and stderr to this file. */
  logFile?: string;
  /** How long to wait for `eth_chainId` to answer; default 60 000 ms. */
  timeoutMs?: number;
};

export type Devnet = {
  chainId: number;
  port: number;
  rpcUrl: string;
  pid: number;
  /** Kills the node and resolves once the process has exited. Safe to call twice. */
  stop(): Promise<void>;
};

/** Startup failure; the message ends with the tail of the node's output. */
export class DevnetError extends Error {
  override name = 'DevnetError';
}

type JsonRpcResponse = { result?: unknown; error?: { code: number; message: string; data?: unknown } };

/**
 * Sends one JSON-RPC request over HTTP.
 * @returns the `result` field.
 * @throws Error carrying the JSON-RPC error message and code, or the transport error.
 */
export async function jsonRpc<T = unknown>(
  rpcUrl: string,
  method: string,
  params: unknown[] = [],
  timeoutMs = 10_000,
): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as JsonRpcResponse;
  if (body.error) throw new Error(`${method} failed: ${body.error.message} (code ${body.error.code})`);
  return body.result as T;
}

/**
 * Checks whether a JSON-RPC node answers `eth_chainId` at `rpcUrl`.
 * @returns the chain id when it answers, `false` otherwise (never throws).
 */
export async function isRpcUp(rpcUrl: string, timeoutMs = 1_000): Promise<number | false> {
  try {
    return Number(await jsonRpc<string>(rpcUrl, 'eth_chainId', [], timeoutMs));
  } catch {
    return false;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolvePort) => {
    const server = createServer();
    server.once('error', () => resolvePort(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePort(true)));
  });
}

/**
 * Finds a port on 127.0.0.1 that nothing listens on, starting at a random point of the range so that
 * parallel suites rarely pick the same one.
 * @throws DevnetError when the whole range is busy.
 */
export async function findFreePort(range: { from: number; to: number } = DEVNET_PORT_RANGE): Promise<number> {
  const size = range.to - range.from + 1;
  const offset = Math.floor(Math.random() * size);
  for (let i = 0; i < size; i++) {
    const port = range.from + ((offset + i) % size);
    if (await canListen(port)) return port;
  }
  throw new DevnetError(`no free port in ${range.from}-${range.to}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Spawns `hardhat node --hostname 127.0.0.1 --port <port>` from the repo root and waits until it answers
 * `eth_chainId` with `chainId`.
 * @returns the running devnet; call `stop()` when done.
 * @throws DevnetError (with the output tail) if the port already serves RPC, the process dies, the chain
 *   id differs or the node is not up within `timeoutMs`.
 */
export async function startDevnet(params: StartDevnetParams): Promise<Devnet> {
  const { chainId, port, logFile, timeoutMs = 60_000 } = params;
  const rpcUrl = `http://127.0.0.1:${port}`;
  if ((await isRpcUp(rpcUrl)) !== false) throw new DevnetError(`port ${port} already serves JSON-RPC; pick another`);

  const child = spawn(hardhatBin, ['node', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: repoRoot,
    env: { ...process.env, DEVNET_CHAIN_ID: String(chainId), HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
  let tail = '';
  const onOutput = (chunk: Buffer) => {
    log?.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-8_000);
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);

  let exitInfo: string | undefined;
  const exited = new Promise<void>((resolveExit) => {
    child.once('exit', (code, signal) => {
      exitInfo = `exit code ${code ?? 'null'}, signal ${signal ?? 'none'}`;
      resolveExit();
    });
  });
  child.once('error', (err) => {
    exitInfo = `spawn failed: ${err.message}`;
  });
  // Never leave an orphaned node behind if the parent exits without calling stop().
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.removeListener('exit', killOnExit);
      if (exitInfo === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (log) await new Promise<void>((r) => log.end(r));
    })());

  const fail = async (reason: string): Promise<never> => {
    await stop();
    throw new DevnetError(
      `devnet chainId ${chainId} on port ${port}: ${reason}\n--- output tail ---\n${tail.slice(-2_000)}`,
    );
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitInfo !== undefined) return fail(`process died (${exitInfo})`);
    const answered = await isRpcUp(rpcUrl);
    if (answered !== false) {
      if (answered !== chainId) return fail(`eth_chainId answered ${answered}`);
      break;
    }
    if (Date.now() > deadline) return fail(`no eth_chainId answer within ${timeoutMs} ms`);
    await sleep(100);
  }
  if (child.pid === undefined) return fail('no pid');
  return { chainId, port, rpcUrl, pid: child.pid, stop };
}

/** A node that could not bind its port: someone took it between the probe and the bind. */
const PORT_TAKEN = /EADDRINUSE|address already in use|already serves JSON-RPC/i;

export type StartDevnetOnFreePortParams = Omit<StartDevnetParams, 'port'> & {
  /** Ports to try, in turn; default a free port of DEVNET_PORT_RANGE each time (findFreePort). */
  nextPort?: () => Promise<number>;
  /** How many ports to try before giving up; default 5. */
  attempts?: number;
};

/**
 * startDevnet on a free port, trying another one when the chosen port was taken between the probe and the node's
 * bind: several processes start devnets at once (helpers' suites, the chaos suite, parallel workers) and a probe
 * cannot reserve a port. Any other failure is thrown at once.
 */
export async function startDevnetOnFreePort(params: StartDevnetOnFreePortParams): Promise<Devnet> {
  const { nextPort = () => findFreePort(), attempts = 5, ...rest } = params;
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevnet({ ...rest, port: await nextPort() });
    } catch (err) {
      if (attempt >= attempts || !(err instanceof DevnetError) || !PORT_TAKEN.test(err.message)) throw err;
    }
  }
}
