import type { ApiDeps } from '../../deps.js';
import { ServiceUnavailableError } from '../../errors.js';
import { indexNames } from '../../../internal/es.js';

/** Most opportunity ids one search word brings into a campaign search (Elasticsearch's result window). */
export const MAX_OPPORTUNITIES_PER_WORD = 10_000;

/**
 * The ids of the opportunities whose search text (name, protocol, type, target token, chain) has a
 * word starting with each of `words`, one list per word, in one msearch on the opportunities read
 * alias. A campaign search matches a word in the campaign's own text or in its opportunity's (issue
 * 31: `search=Supply` found no campaign of the "Supply sUSDx" opportunity), read at query time so a
 * renamed opportunity needs no campaign re-projection.
 */
export async function opportunityIdsByWord(deps: Pick<ApiDeps, 'es' | 'config'>, words: string[]): Promise<string[][]> {
  if (!words.length) return [];
  const timeoutMs = deps.config.esRequestTimeoutMs;
  const index = indexNames(deps.config.esIndexPrefix, 'opportunities').read;
  const res = await deps.es.msearch<{ id: string }>(
    {
      searches: words.flatMap((word) => [
        { index },
        {
          size: MAX_OPPORTUNITIES_PER_WORD,
          _source: ['id'],
          timeout: `${timeoutMs}ms`,
          query: { prefix: { searchText: word } },
        },
      ]),
    },
    { requestTimeout: timeoutMs },
  );
  return res.responses.map((r) => {
    if ('error' in r || r.timed_out)
      throw new ServiceUnavailableError('elasticsearch', 'error' in r ? r.error : undefined);
    return r.hits.hits.map((h) => h._source!.id);
  });
}
