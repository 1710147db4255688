import type { estypes } from '@elastic/elasticsearch';
import type { ApiDeps } from '../deps.js';
import { ServiceUnavailableError } from '../errors.js';
import { assertCampaignVisibility } from './campaignIndexGuard.js';

/**
 * Runs one search on an index with the configured timeout; `timed_out` is a 503, never a partial
 * answer. Campaign indices only with `applied` (api/visibility/campaignSearch.ts; see campaignIndexGuard.ts).
 */
export async function searchOnce<T>(
  deps: Pick<ApiDeps, 'es' | 'config'>,
  index: string,
  body: Record<string, unknown>,
  applied?: symbol,
): Promise<estypes.SearchResponse<T>> {
  assertCampaignVisibility(index, applied);
  const timeoutMs = deps.config.esRequestTimeoutMs;
  const res = await deps.es.search<T>({ index, ...body, timeout: `${timeoutMs}ms` }, { requestTimeout: timeoutMs });
  if (res.timed_out) throw new ServiceUnavailableError('elasticsearch');
  return res;
}
