import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Ports of the replica chaos suite's own primary and replica: never the shared 55432 (below the ephemeral range: privateServices.ts). */
export const REPLICA_PRIMARY_PORT = Number(process.env['CHAOS_REPLICA_PRIMARY_PORT'] ?? 19971);
export const REPLICA_PORT = Number(process.env['CHAOS_REPLICA_PORT'] ?? 19972);
const DATA_DIR = process.env['CHAOS_REPLICA_DATA_DIR'] ?? `${ROOT}.data/chaos-replica`;

export type PrivateReplicaPair = {
  primaryUrl: string;
  replicaUrl: string;
  /** Starts the replica (pgReplica.sh up: a base backup the first time); resolves once it answers. */
  startReplica(): Promise<void>;
  /** Stops the replica (pg_ctl -m fast) and waits until it is gone. */
  stopReplica(): Promise<void>;
  /** Stops both and removes their data directory (the suite's `after`). */
  close(): Promise<void>;
};

/**
 * A PostgreSQL primary and its streaming replica private to one suite, started with the project's
 * own scripts (pg.sh, pgReplica.sh) under `.data/chaos-replica` on their own ports. `prepare` runs on
 * the primary before the base backup (migrations), so the replica starts with the schema.
 */
export async function startPrivateReplicaPair({
  database = 'rewards_replica',
  prepare,
}: {
  database?: string;
  prepare: (primaryUrl: string) => Promise<void>;
}): Promise<PrivateReplicaPair> {
  if ([REPLICA_PRIMARY_PORT, REPLICA_PORT].includes(55432))
    throw new Error('the replica chaos suite must not use the shared port 55432');
  const env = {
    ...process.env,
    DATA_DIR,
    PG_PORT: String(REPLICA_PRIMARY_PORT),
    PG_REPLICA_PORT: String(REPLICA_PORT),
  };
  const script = async (name: 'pg' | 'pgReplica', action: 'up' | 'down') => {
    try {
      await run('bash', [`${ROOT}scripts/services/${name}.sh`, action], { env, timeout: 240_000 });
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`${name}.sh ${action} failed (data dir ${DATA_DIR}): ${e.stderr?.trim() || e.message}`, {
        cause: error,
      });
    }
  };
  // A replica left by an earlier run copies an older primary: start from nothing.
  await script('pgReplica', 'down').catch(() => {});
  await script('pg', 'down').catch(() => {});
  await run('rm', ['-rf', DATA_DIR]);
  const primaryUrl = `postgres://postgres@127.0.0.1:${REPLICA_PRIMARY_PORT}/${database}`;
  await script('pg', 'up');
  await prepare(primaryUrl);
  await script('pgReplica', 'up');
  return {
    primaryUrl,
    replicaUrl: `postgres://postgres@127.0.0.1:${REPLICA_PORT}/${database}`,
    startReplica: () => script('pgReplica', 'up'),
    stopReplica: () => script('pgReplica', 'down'),
    close: async () => {
      await Promise.allSettled([script('pgReplica', 'down')]);
      await Promise.allSettled([script('pg', 'down')]);
      await run('rm', ['-rf', DATA_DIR]).catch(() => {});
    },
  };
}
