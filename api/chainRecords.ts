import { toChainRecord, type ChainRecord } from '../indexer/documents/records.js';
import { listChains, type ChainRow } from '../indexer/store/chains.js';
import type { PgPool } from '../internal/pg.js';
import type { ApiDeps } from './deps.js';

/** How long the chains' rows (with their live campaign counts) are reused by a process. */
const TTL_MS = 2000;

const cache = new WeakMap<PgPool, { key: string; expires: number; rows: Promise<ChainRow[]> }>();

/**
 * The configured chains' rows as of `now`, shared by every request of the next two seconds: each
 * read route needs them (chain records, test chains), and counting live campaigns per chain on
 * every request dominated the latency of searches at a million campaigns (bench:search).
 */
export function currentChainRows(deps: Pick<ApiDeps, 'pg' | 'config'>, now: number): Promise<ChainRow[]> {
  const key = `${now}`.slice(0, -1); // ten-second buckets of `now`; within them the TTL decides
  const hit = cache.get(deps.pg);
  if (hit && hit.key === key && hit.expires > Date.now()) return hit.rows;
  const rows = listChains(deps.pg, deps.config.chains.map((c) => c.id), now);
  cache.set(deps.pg, { key, expires: Date.now() + TTL_MS, rows });
  rows.catch(() => cache.delete(deps.pg));
  return rows;
}

/** The configured chains as Chain records keyed by id (currentChainRows, serialized). */
export async function currentChainRecords(deps: Pick<ApiDeps, 'pg' | 'config'>, now: number): Promise<Map<number, ChainRecord>> {
  return new Map((await currentChainRows(deps, now)).map((r) => [r.id, toChainRecord(r)]));
}
