import { loadFreshness, type Freshness } from '../../reads/freshness.js';
import { outboxDepth } from '../../../domain/tables/outbox.js';
import { loadJobStatuses, type JobStatus } from '../../../jobs/control/jobStatus.js';
import type { ReadReplicaStatus } from '../../../internal/readReplica.js';
import { probeBlockNumber } from '../../chain/probeHead.js';
import type { ApiDeps } from '../../deps.js';

/** Deadline of each chain's head request during a scrape. */
const RPC_TIMEOUT_MS = 2000;

export type ChainSnapshot = { chainId: number; head: number | null; canonicalHead: number | null };

/** Everything one scrape exposes, read at scrape time. */
export type MetricsSnapshot = {
  jobs: JobStatus[];
  chains: ChainSnapshot[];
  outbox: { depth: number; oldestAgeSeconds: number | null };
  freshness: Freshness;
  /** The read replica's state in this process (absent without DATABASE_READ_URL). */
  replica?: ReadReplicaStatus;
};

/** Resolves to `promise`'s value, or null after `ms` or on failure (a dead node must not stall a scrape). */
async function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), ms);
      }),
    ]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads the metrics of one scrape: jobs, cursors and freshness from PostgreSQL (so the values are
 * right whichever process runs the jobs) and each chain's head from its RPC (bounded deadline).
 * Tables: job_runs, job_state, cursors, search_outbox, campaigns.
 */
export async function collectMetrics(deps: ApiDeps): Promise<MetricsSnapshot> {
  const [jobs, outbox, freshness, heads] = await Promise.all([
    loadJobStatuses(deps.pg),
    outboxDepth(deps.pg),
    loadFreshness(deps.pg),
    Promise.all(
      [...deps.rpc.values()].map(async (chainClient) => ({
        chainId: chainClient.chain.id,
        head: await withDeadline(probeBlockNumber(chainClient), RPC_TIMEOUT_MS),
      })),
    ),
  ]);
  const canonical = new Map((jobs.find((j) => j.job === 'blocks')?.chains ?? []).map((c) => [c.chainId, c.cursor]));
  return {
    jobs,
    outbox,
    freshness,
    ...(deps.readPg ? { replica: deps.readPg.status() } : {}),
    chains: heads.map((h) => ({ ...h, canonicalHead: canonical.get(h.chainId) ?? null })),
  };
}
