import { setTimeout as sleep } from 'node:timers/promises';
import { createProgress } from '../../internal/progress.js';
import type { Config } from '../../internal/config.js';
import type { EsClient } from '../../internal/es.js';
import { indexNames } from '../../internal/es.js';
import { BaseError, describeError } from '../../internal/errors.js';
import type { Logger } from '../../internal/logger.js';
import type { PgPool } from '../../internal/pg.js';
import type { IndexFamily } from '../../search-mappings/aliases.js';
import {
  createIndex,
  latestVersion,
  listFamilyIndices,
  loadIndexDefinition,
  nextIndexName,
  shapeSettings,
} from '../../search-mappings/aliases.js';
import { buildDocuments } from '../../domain/projection/buildDocuments.js';
import { familyIdPages, SOURCE_TABLE } from './familyIds.js';
import { bulkWrite } from '../../domain/projection/publish.js';
import { discardReindexWindow, openReindexWindow, replayAbandonedWindows, swapWithReplay } from './reindexWindow.js';

/** Namespace of the reindex advisory lock (one reindex per index prefix at a time). */
const REINDEX_LOCK_NAMESPACE = 0x726978; // "rix"

/** Table each family's ids are streamed from. */
export class ReindexError extends BaseError {
  override name = 'ReindexError';
}

export type ReindexProgress = { done: number; total: number };

export type ReindexFamilyParams = {
  config: Config;
  pg: PgPool;
  es: EsClient;
  logger: Logger;
  family: IndexFamily;
  /** Ids per PostgreSQL page and bulk request; default INDEXER_PUBLISH_BATCH. */
  batchSize?: number;
  /** Grace before the old index is deleted, so searches that resolved the alias just before the swap finish. */
  deleteDelayMs?: number;
  /** Called after every batch; awaited (the CLI draws its progress bar here). */
  onProgress?: (progress: ReindexProgress) => void | Promise<void>;
  signal?: AbortSignal;
};

export type ReindexFamilyResult = {
  family: IndexFamily;
  /** The concrete index the aliases point to now. */
  index: string;
  /** Indices the aliases pointed to before (deleted). */
  previous: string[];
  /** Rows streamed from PostgreSQL and documents written. */
  rows: number;
  documents: number;
  /** Outbox entries consumed during the reindex and queued again after the swap. */
  replayed: number;
  durationMs: number;
};

/**
 * Rebuilds one search family from PostgreSQL into a new concrete index and moves both aliases to
 * it: creates `nextIndexName` (`<prefix>-<family>_vN` for a new mapping version, else
 * `_vN_r<K>`), streams every id of the family's table in keyset pages, builds documents with the
 * projector's builders, bulk-writes them (refresh off while loading), refreshes, swaps the read and
 * write aliases in one atomic `_aliases` call, then deletes the old index after a short grace.
 * Progress (count, rate, ETA) is logged as it goes.
 *
 * Invariant (no change is lost): a reindex window opens (row in search_reindexes) before the first
 * page is read. From then on, every outbox entry the projector consumes (its document went to the
 * old index) is copied into search_outbox_replay by a trigger on search_outbox. A change committed
 * before the window opened is visible to the pages read after it. A change committed later has an
 * outbox entry that is either consumed before the swap (kept for replay) or still queued at the
 * swap (projected afterwards, to the new index). The swap transaction takes `LOCK search_outbox IN
 * EXCLUSIVE MODE`, which waits for projector transactions in flight (they hold row locks on the
 * outbox from claim to commit) and holds new ones off; while holding it, it moves the aliases,
 * queues the kept entries again and closes the window. So every projection either committed
 * before the swap (and is replayed) or starts after it (and writes to the new index). A window left
 * by a crash is replayed and closed by the next reindex; one reindex per prefix runs at a time.
 * This holds as long as the projector (outbox → write aliases) is the only writer of documents.
 * Tables: campaigns | opportunities (read), search_reindexes, search_outbox_replay, search_outbox.
 * Indices: the new <prefix>-<family>_v…, aliases <prefix>-<family> and <prefix>-<family>_write.
 * @throws ReindexError when another reindex holds the lock or the run is aborted; the new index is deleted unless the swap happened.
 */
export async function reindexFamily(params: ReindexFamilyParams): Promise<ReindexFamilyResult> {
  const lockClient = await params.pg.connect();
  try {
    const key = [REINDEX_LOCK_NAMESPACE, params.config.esIndexPrefix];
    const { rows } = await lockClient.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok',
      key,
    );
    if (rows[0]?.ok !== true)
      throw new ReindexError('another reindex of this index prefix is running', {
        details: { prefix: params.config.esIndexPrefix },
      });
    try {
      return await reindexLocked(params);
    } finally {
      await lockClient.query('SELECT pg_advisory_unlock($1, hashtext($2))', key).catch(() => {});
    }
  } finally {
    lockClient.release();
  }
}

async function reindexLocked({
  config,
  pg,
  es,
  logger,
  family,
  batchSize = config.indexer.publishBatch,
  deleteDelayMs = 1000,
  onProgress,
  signal,
}: ReindexFamilyParams): Promise<ReindexFamilyResult> {
  const started = Date.now();
  const prefix = config.esIndexPrefix;
  const log = logger.child({ family });
  const abandoned = await replayAbandonedWindows(pg, prefix);
  if (abandoned.windows)
    log.warn({
      msg: 'closed reindex windows left by an interrupted reindex',
      windows: abandoned.windows,
      replayed: abandoned.replayed,
    });
  const { index, version, previous } = await planTarget(es, prefix, family, log);
  const windowId = await openReindexWindow(pg, { prefix, family, index });
  let swapped = false;
  try {
    await createIndex({
      es,
      family,
      version,
      index,
      settings: { ...shapeSettings(config.esIndexShape), refresh_interval: '-1' },
    });
    log.info({ msg: 'reindex started', index, previous, version });
    const { rows, documents } = await streamDocuments({
      config,
      pg,
      es,
      logger: log,
      family,
      index,
      batchSize,
      onProgress,
      signal,
    });
    // Back to the mapping's refresh interval (null resets Elasticsearch's default).
    const refreshInterval = loadIndexDefinition(family, version).settings['refresh_interval'] ?? null;
    await es.indices.putSettings({ index, settings: { refresh_interval: refreshInterval as string } });
    await es.indices.refresh({ index });
    const replayed = await swapWithReplay({
      pg,
      es,
      prefix,
      family,
      index,
      windowId,
      onSwapped: () => (swapped = true),
      logger: log,
    });
    log.info({ msg: 'aliases swapped', index, previous, replayed });
    const old = previous.filter((p) => p !== index);
    if (old.length) {
      await sleep(deleteDelayMs);
      await es.indices.delete({ index: old.join(',') }, { ignore: [404] });
    }
    const durationMs = Date.now() - started;
    log.info({ msg: 'reindex finished', index, rows, documents, replayed, duration_ms: durationMs });
    return { family, index, previous: old, rows, documents, replayed, durationMs };
  } catch (error) {
    swapped ||= await aliasTargets(es, indexNames(prefix, family).read).then(
      (t) => t.includes(index),
      () => true,
    );
    if (swapped) {
      // The aliases moved but the replay did not commit: the window stays, the next reindex replays it.
      log.error({
        msg: 'aliases swapped but the replay of entries consumed during the reindex was not queued; run the reindex again',
        index,
        err: describeError(error),
      });
    } else {
      await es.indices.delete({ index }, { ignore: [404] }).catch(() => {});
      await discardReindexWindow(pg, windowId).catch(() => {});
      log.error({ msg: 'reindex failed; the old index stays in use', index, err: describeError(error) });
    }
    throw error;
  }
}

/**
 * The index to build and the indices the aliases point to now. Unaliased builds are leftovers of
 * a crashed reindex and are deleted (only when the family is live elsewhere, so an index that
 * ensureIndices is just creating is never taken for one).
 */
async function planTarget(
  es: EsClient,
  prefix: string,
  family: IndexFamily,
  logger: Logger,
): Promise<{ index: string; version: number; previous: string[] }> {
  const indices = await listFamilyIndices({ es, prefix, family });
  const aliases = indexNames(prefix, family);
  const previous = indices
    .filter((i) => i.aliases.includes(aliases.read) || i.aliases.includes(aliases.write))
    .map((i) => i.index);
  const leftovers = previous.length ? indices.filter((i) => !i.aliases.length).map((i) => i.index) : [];
  if (leftovers.length) {
    await es.indices.delete({ index: leftovers.join(',') }, { ignore: [404] });
    logger.warn({ msg: 'deleted indices left by an interrupted reindex', indices: leftovers });
  }
  const version = latestVersion(family);
  return {
    index: nextIndexName({ prefix, family, version, existing: indices.map((i) => i.index) }),
    version,
    previous,
  };
}

type StreamParams = Pick<
  ReindexFamilyParams,
  'config' | 'pg' | 'es' | 'logger' | 'family' | 'onProgress' | 'signal'
> & { index: string; batchSize: number };

/** Every id of the family's table in keyset pages → documents → bulk writes into `index`. */
async function streamDocuments({
  config,
  pg,
  es,
  logger,
  family,
  index,
  batchSize,
  onProgress,
  signal,
}: StreamParams): Promise<{ rows: number; documents: number }> {
  const table = SOURCE_TABLE[family];
  const chainNames = new Map(config.chains.map((c) => [c.id, c.name]));
  const client = await pg.connect();
  try {
    const total = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
    const progress = createProgress({ logger, total, unit: 'rows', minTotal: 1 });
    let rows = 0;
    let documents = 0;
    const checkAborted = () => {
      if (signal?.aborted) throw new ReindexError('reindex aborted', { details: { family, rows } });
    };
    checkAborted();
    for await (const ids of familyIdPages(client, family, batchSize)) {
      const built = await buildDocuments(client, family, ids, { chainNames, now: new Date() });
      documents += (await bulkWrite({ es, index, upserts: built.upserts })).indexed;
      rows += ids.length;
      progress.advance(ids.length, { index, documents });
      await onProgress?.({ done: rows, total: Math.max(total, rows) });
      checkAborted(); // before the next page is read
    }
    return { rows, documents };
  } finally {
    client.release();
  }
}

/** Concrete indices an alias points to (empty when it does not exist). */
async function aliasTargets(es: EsClient, alias: string): Promise<string[]> {
  const res = await es.indices.getAlias({ name: alias }, { ignore: [404] });
  // With ignore: [404] a missing alias answers { error, status } instead of index → aliases.
  return Object.entries(res as Record<string, unknown>)
    .filter(([k, v]) => k !== 'error' && k !== 'status' && v !== null && typeof v === 'object')
    .map(([k]) => k);
}
