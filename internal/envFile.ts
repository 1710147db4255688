import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';

type Env = Record<string, string | undefined>;

/** Where the quick start (scripts/dev.ts) writes the settings it gave its own process. */
export const QUICK_START_ENV_FILE = fileURLToPath(new URL('../.data/quickstart.env', import.meta.url));

/**
 * The environment every process of ours loads its configuration from: `env` (usually `process.env`)
 * over the settings of an env file, so `npm run jobs:run`, `jobs:start` and `api:start` run with the
 * configuration of the quick start that is serving (issue #44). The file is `ENV_FILE` when set,
 * else the quick start's `.data/quickstart.env` when it exists, except under NODE_ENV=test (tests
 * pass their whole configuration). A variable set in `env` always wins over the file.
 */
export function environmentOf(env: Env = process.env): Env {
  const file = env['ENV_FILE'] || (env['NODE_ENV'] === 'test' ? undefined : QUICK_START_ENV_FILE);
  if (!file || (!env['ENV_FILE'] && !existsSync(file))) return env;
  const fromFile = parseEnv(readFileSync(file, 'utf8')) as Env;
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  return { ...fromFile, ...set };
}

/**
 * Writes `settings` as an env file (mode 0600: it holds the quick start's secrets) headed by a
 * comment saying who wrote it; each value is quoted literally (node:util parseEnv: ', ` or ", the
 * first it does not hold).
 */
export function writeEnvFile(file: string, settings: Record<string, string>, header: string): void {
  const quote = (v: string) => {
    const q = ["'", '`', '"'].find((c) => !v.includes(c) && !v.includes('\n'));
    if (!q) throw new Error('env file: a value holds every quote character or a newline');
    return `${q}${v}${q}`;
  };
  const lines = Object.entries(settings)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${quote(v)}`);
  writeFileSync(file, `${header.replace(/^/gm, '# ')}\n${lines.join('\n')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
