import type { estypes } from '@elastic/elasticsearch';
import type { EsClient } from '../../internal/es.js';
import { ServiceUnavailableError } from '../errors.js';
import { assertCampaignVisibility } from './campaignIndexGuard.js';

/** Elasticsearch's default `index.max_result_window`: from + size beyond it needs search_after. */
export const MAX_RESULT_WINDOW = 10_000;

export type SearchPageParams = {
  es: EsClient;
  index: string;
  query: estypes.QueryDslQueryContainer;
  /** Must end with a unique tie-breaker (e.g. `{ id: 'asc' }`) so pages never repeat or skip a hit. */
  sort: estypes.Sort;
  page: number;
  items: number;
  timeoutMs: number;
  /** Source fields to return; all when omitted. */
  source?: string[];
  /** Required for a campaigns index: api/visibility/campaignSearch.ts passes it (campaignIndexGuard.ts). */
  applied?: symbol;
};

/**
 * One page of hits of any result set, however deep: within the first 10,000 hits a plain from/size
 * search; beyond, a point-in-time walk with search_after (sort values only) to the page's offset,
 * then the page itself from the same snapshot, so every hit is reachable by paging.
 * A timed-out search is a 503, never a partial page.
 */
export async function searchPage<T>({
  es,
  index,
  query,
  sort,
  page,
  items,
  timeoutMs,
  source,
  applied,
}: SearchPageParams): Promise<T[]> {
  assertCampaignVisibility(index, applied);
  const offset = page * items;
  const common = {
    query,
    sort,
    timeout: `${timeoutMs}ms`,
    track_total_hits: false,
    ...(source ? { _source: source } : {}),
  };
  const check = (res: estypes.SearchResponse<T>) => {
    if (res.timed_out) throw new ServiceUnavailableError('elasticsearch');
    return res;
  };
  if (offset + items <= MAX_RESULT_WINDOW) {
    return check(
      await es.search<T>({ index, from: offset, size: items, ...common }, { requestTimeout: timeoutMs }),
    ).hits.hits.map((h) => h._source!);
  }
  const pit = await es.openPointInTime({ index, keep_alive: '1m' }, { requestTimeout: timeoutMs });
  try {
    let after: estypes.SortResults | undefined;
    for (let skipped = 0; skipped < offset; ) {
      const size = Math.min(MAX_RESULT_WINDOW, offset - skipped);
      const res = check(
        await es.search<T>(
          {
            pit: { id: pit.id, keep_alive: '1m' },
            size,
            ...common,
            _source: false,
            ...(after ? { search_after: after } : {}),
          },
          { requestTimeout: timeoutMs },
        ),
      );
      const hits = res.hits.hits;
      if (!hits.length) return [];
      skipped += hits.length;
      after = hits[hits.length - 1]!.sort;
    }
    const res = check(
      await es.search<T>(
        { pit: { id: pit.id, keep_alive: '1m' }, size: items, ...common, ...(after ? { search_after: after } : {}) },
        { requestTimeout: timeoutMs },
      ),
    );
    return res.hits.hits.map((h) => h._source!);
  } finally {
    await es.closePointInTime({ id: pit.id }).catch(() => {});
  }
}
