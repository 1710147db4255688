import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Ports of the chaos suite's own PostgreSQL and Elasticsearch (transport 100 above): never the shared 55432 /
 * 59200. The private services start in the middle of a run, so their ports are below the kernel's ephemeral
 * range (32768–60999 here), as the devnets' (18600–18699) and the API processes' (19000–19899): in that range an
 * outgoing connection of another suite may hold the port when the service binds it (ci70: the replica's 55472
 * was taken). The chaos services use 19900–19999 (privateReplica.ts, privateEsCluster.ts).
 */
export const PRIVATE_PG_PORT = Number(process.env['CHAOS_PG_PORT'] ?? 19961);
export const PRIVATE_ES_PORT = Number(process.env['CHAOS_ES_PORT'] ?? 19962);
const DATA_DIR = process.env['CHAOS_DATA_DIR'] ?? `${ROOT}.data/chaos`;

export type PrivateService = 'pg' | 'es';

/**
 * Runs scripts/services/<name>.sh with `args` under the chaos data directory, `env` added;
 * resolves with its stdout, or throws with its stderr.
 */
export async function runServiceScript(name: string, args: string[], env: Record<string, string>): Promise<string> {
  try {
    const { stdout } = await run('bash', [`${ROOT}scripts/services/${name}.sh`, ...args], {
      env: { ...process.env, DATA_DIR, ...env },
      timeout: 360_000,
    });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`${name}.sh ${args.join(' ')} failed (data dir ${DATA_DIR}): ${e.stderr?.trim() || e.message}`, {
      cause: error,
    });
  }
}

export type PrivateServices = {
  databaseUrl: string;
  esUrl: string;
  /** Starts one service with scripts/services/<name>.sh (idempotent); resolves once it answers. */
  start(service: PrivateService): Promise<void>;
  /** Stops one service (SIGTERM / pg_ctl -m fast) and waits until it is gone. */
  stop(service: PrivateService): Promise<void>;
  /** Stops both (the suite's `after`). */
  close(): Promise<void>;
};

/**
 * PostgreSQL and Elasticsearch instances private to a test suite that stops and restarts them,
 * started with the project's own service scripts under `.data/chaos` on their own ports, so the
 * services other suites (and other people) use are never disturbed. Refuses the shared ports.
 */
export async function startPrivateServices({
  database = 'rewards_chaos',
}: {
  database?: string;
} = {}): Promise<PrivateServices> {
  if (PRIVATE_PG_PORT === 55432 || PRIVATE_ES_PORT === 59200)
    throw new Error('chaos services must not use the shared ports 55432 / 59200');
  const env = { PG_PORT: String(PRIVATE_PG_PORT), ES_PORT: String(PRIVATE_ES_PORT) };
  const script = async (service: PrivateService, action: 'up' | 'down') =>
    void (await runServiceScript(service, [action], env));
  const services: PrivateServices = {
    databaseUrl: `postgres://postgres@127.0.0.1:${PRIVATE_PG_PORT}/${database}`,
    esUrl: `http://127.0.0.1:${PRIVATE_ES_PORT}`,
    start: (service) => script(service, 'up'),
    stop: (service) => script(service, 'down'),
    close: async () => void (await Promise.allSettled([script('es', 'down'), script('pg', 'down')])),
  };
  await services.start('pg');
  await services.start('es');
  return services;
}
