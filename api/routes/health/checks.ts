import { listCursors } from '../../../indexer/store/cursor.js';
import { outboxDepth } from '../../../indexer/store/outbox.js';
import { lastRuns } from '../../../jobs/runJob.js';
import { describeError } from '../../../internal/errors.js';
import type { ApiDeps } from '../../deps.js';

const CHECK_TIMEOUT_MS = 2000;

type Check<T> = { ok: true; latencyMs: number } & T | { ok: false; latencyMs: number; error: string };

/** Runs one probe with a deadline, reporting latency and the error instead of throwing. */
async function probe<T extends Record<string, unknown>>(fn: () => Promise<T>): Promise<Check<T>> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const value = await Promise.race([
      fn(),
      new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS); }),
    ]);
    return { ok: true, latencyMs: Date.now() - started, ...value };
  } catch (error) {
    return { ok: false, latencyMs: Date.now() - started, error: describeError(error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Health of the service: PostgreSQL, Elasticsearch, each chain's RPC (head block), each job's
 * last run and lag in blocks per chain (head − cursor), and the search outbox depth.
 * `status` is `ok` when every dependency answers, `degraded` otherwise.
 */
export async function checkHealth(deps: ApiDeps) {
  const [postgres, elasticsearch, chains] = await Promise.all([
    probe(async () => (await deps.pg.query('SELECT 1'), {})),
    probe(async () => {
      const h = await deps.es.cluster.health({ timeout: `${CHECK_TIMEOUT_MS}ms` });
      return { clusterStatus: h.status };
    }),
    Promise.all([...deps.rpc.values()].map(async ({ chain, client }) => ({ id: chain.id, name: chain.name, rpc: await probe(async () => ({ head: Number(await client.getBlockNumber()) })) }))),
  ]);
  const [runs, cursors, outbox] = postgres.ok
    ? await Promise.all([lastRuns(deps), listCursors(deps.pg), outboxDepth(deps.pg)]).catch(() => [[], [], null] as const)
    : [[], [], null];
  const heads = new Map(chains.map((c) => [c.id, c.rpc.ok ? (c.rpc as { head: number }).head : null]));
  const jobNames = [...new Set([...runs.map((r) => r.job), ...cursors.map((c) => c.job)])].sort();
  const jobs = jobNames.map((name) => {
    const run = runs.find((r) => r.job === name);
    return {
      name,
      lastRun: run ? { status: run.status, startedAt: run.startedAt.toISOString(), finishedAt: run.finishedAt?.toISOString() ?? null, error: run.error } : null,
      lastSuccessAt: run?.lastSuccessAt?.toISOString() ?? null,
      lagSeconds: run?.lastSuccessAt ? Math.round((Date.now() - run.lastSuccessAt.getTime()) / 1000) : null,
      chains: cursors.filter((c) => c.job === name).map((c) => {
        const head = heads.get(c.chainId) ?? null;
        return { chainId: c.chainId, cursor: c.blockNumber, head, lagBlocks: head === null ? null : Math.max(0, head - c.blockNumber) };
      }),
    };
  });
  const ok = postgres.ok && elasticsearch.ok && chains.every((c) => c.rpc.ok);
  return { status: ok ? 'ok' : 'degraded', checkedAt: new Date().toISOString(), postgres, elasticsearch, chains, jobs, outbox };
}
