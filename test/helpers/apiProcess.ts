import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../internal/config.js';
import { childProcessEnv } from './testConfig.js';
import { eventually } from './eventually.js';
import { nodeArgs } from './compiledSources.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type StartApiProcessParams = {
  config: Config;
  port: number;
  /** Extra environment (RATE_LIMITS, TRUSTED_PROXIES, …). */
  env?: Record<string, string>;
};

/**
 * Ports for API processes of the tests, below the kernel's ephemeral range (32768–60999) and apart
 * from the devnets' (18600–18699): a port found free stays free until the API binds it.
 */
export const API_PROCESS_PORTS = { from: 19000, to: 19899 } as const;

/**
 * The API as its own process (`node api/server.js` of this run's build, as production runs dist/) on
 * 127.0.0.1:`port`, for tests that SIGKILL it; resolves once `/v4/health/live` answers. Pick `port`
 * outside the kernel's ephemeral range (32768–60999 here): an outgoing connection may take a port
 * of that range between the check that it is free and the API's bind (API_PROCESS_PORTS).
 */
export async function startApiProcess({ config, port, env = {} }: StartApiProcessParams): Promise<ChildProcess> {
  const proc = spawn(process.execPath, await nodeArgs('api/server.ts'), {
    cwd: ROOT,
    env: childProcessEnv(config, { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The last lines it logged (warnings and errors at LOG_LEVEL warn): why it exited, if it does.
  let tail = '';
  proc.stdout!.on('data', (chunk: Buffer) => void (tail = (tail + chunk.toString('utf8')).slice(-4000)));
  // Until it answers, or exits (a failure at once, not a minute of polling).
  await eventually(
    async () =>
      proc.exitCode !== null ||
      (await fetch(`http://127.0.0.1:${port}/v4/health/live`).then(
        (r) => r.ok,
        () => false,
      )),
    { timeoutMs: 60_000, intervalMs: 100, what: `the API on port ${port} answering` },
  ).catch((error: Error) => {
    proc.kill('SIGKILL');
    throw new Error(`${error.message}: ${tail.trim()}`);
  });
  if (proc.exitCode !== null) throw new Error(`API on port ${port} exited with ${proc.exitCode}: ${tail.trim()}`);
  return proc;
}
