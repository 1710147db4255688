import { toChainRecord, type ChainRecord } from '../domain/documents/records.js';
import { countLivePrivateCampaigns, listChains } from './reads/chains.js';
import type { ChainRow } from '../domain/documents/records.js';
import type { PgPool } from '../internal/pg.js';
import { readPgOf, type ApiDeps } from './deps.js';

/** Rows younger than this are served as they are. */
const FRESH_MS = 2000;
/** Older rows, up to this age, are served while one refresh runs in the background; older still, a request waits for fresh ones. */
const STALE_MS = 60_000;

/** The chains as every read route needs them, derived once per load. */
export type ChainContext = { rows: ChainRow[]; chains: Map<number, ChainRecord>; testChainIds: number[] };

type Entry = { key: string; loadedAt: number; context: Promise<ChainContext>; refreshing: boolean };
const cache = new WeakMap<PgPool, Entry>();

function load(deps: Pick<ApiDeps, 'pg' | 'readPg' | 'config'>, key: string, now: number): Entry {
  // Lag-tolerant (served up to STALE_MS old anyway): the read replica when there is one.
  const context = listChains(
    readPgOf(deps),
    deps.config.chains.map((c) => c.id),
    now,
  ).then((rows) => ({
    rows,
    chains: new Map(rows.map((r) => [r.id, toChainRecord(r)])),
    testChainIds: rows.filter((r) => r.isTest).map((r) => r.id),
  }));
  const entry: Entry = { key, loadedAt: Date.now(), context, refreshing: false };
  entry.context.catch(() => cache.get(deps.pg) === entry && cache.delete(deps.pg));
  return entry;
}

/**
 * The configured chains as of `now` (rows, Chain records by id, test chain ids), as every read
 * route needs them: `liveCampaigns` counts public campaigns only (README "Campaign visibility"),
 * at once after a privacy change. The count of all live campaigns (~20 ms at a million campaigns,
 * bench:search) is shared (sharedChainContext); the live private ones, few, are counted per request.
 */
export async function currentChainContext(
  deps: Pick<ApiDeps, 'pg' | 'readPg' | 'config' | 'now'>,
  now: number,
): Promise<ChainContext> {
  const [shared, privateLive] = await Promise.all([
    sharedChainContext(deps, now),
    countLivePrivateCampaigns(deps.pg, now),
  ]);
  if (!privateLive.size) return shared;
  const rows = shared.rows.map((r) => ({
    ...r,
    liveCampaigns: Math.max(0, r.liveCampaigns - (privateLive.get(r.id) ?? 0)),
  }));
  return { ...shared, rows, chains: new Map(rows.map((r) => [r.id, toChainRecord(r)])) };
}

/**
 * The configured chains with every live campaign counted, shared by every request. Rows are reused
 * for 2 s, then served stale for up to a minute while a single background refresh replaces them, so
 * no request waits for the count after the first. A caller-set clock (`deps.now`, tests) keys the
 * rows by its ten-second bucket instead.
 */
function sharedChainContext(
  deps: Pick<ApiDeps, 'pg' | 'readPg' | 'config' | 'now'>,
  now: number,
): Promise<ChainContext> {
  const key = deps.now ? `${now}`.slice(0, -1) : 'wall-clock';
  const hit = cache.get(deps.pg);
  const age = hit ? Date.now() - hit.loadedAt : Infinity;
  if (hit && hit.key === key && age < FRESH_MS) return hit.context;
  if (hit && hit.key === key && age < STALE_MS) {
    if (!hit.refreshing) {
      hit.refreshing = true;
      const next = load(deps, key, now);
      // Swapped in once loaded; a failed refresh leaves the stale rows (and lets the next request try again).
      next.context.then(
        () => cache.set(deps.pg, next),
        () => (hit.refreshing = false),
      );
    }
    return hit.context;
  }
  const entry = load(deps, key, now);
  cache.set(deps.pg, entry);
  return entry.context;
}

/** Drops the rows kept for `pg` (after changing the chains table directly, as tests do). */
export function forgetChainRows(pg: PgPool): void {
  cache.delete(pg);
}

/** The configured chains' rows (currentChainContext). */
export async function currentChainRows(
  deps: Pick<ApiDeps, 'pg' | 'readPg' | 'config' | 'now'>,
  now: number,
): Promise<ChainRow[]> {
  return (await currentChainContext(deps, now)).rows;
}

/** The configured chains as Chain records keyed by id (currentChainContext). */
export async function currentChainRecords(
  deps: Pick<ApiDeps, 'pg' | 'readPg' | 'config' | 'now'>,
  now: number,
): Promise<Map<number, ChainRecord>> {
  return (await currentChainContext(deps, now)).chains;
}
