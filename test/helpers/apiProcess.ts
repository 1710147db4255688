import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../internal/config.js';
import { childProcessEnv } from './testConfig.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type StartApiProcessParams = {
  config: Config;
  port: number;
  /** Extra environment (RATE_LIMITS, TRUSTED_PROXIES, …). */
  env?: Record<string, string>;
};

/**
 * The API as its own process (`node --import tsx api/server.ts`, as production runs it) on
 * 127.0.0.1:`port`, for tests that SIGKILL it; resolves once `/v4/health/live` answers.
 */
export async function startApiProcess({ config, port, env = {} }: StartApiProcessParams): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    cwd: ROOT,
    env: childProcessEnv(config, { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/v4/health/live`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return proc;
    if (proc.exitCode !== null) throw new Error(`API exited with ${proc.exitCode}`);
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error('API did not answer within 60 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
