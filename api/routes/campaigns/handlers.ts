import type { Context } from 'koa';
import { toChainRecord, type ChainRecord } from '../../../indexer/documents/records.js';
import type { CampaignDocument } from '../../../indexer/documents/campaignDocument.js';
import { listChains } from '../../../indexer/store/chains.js';
import { indexNames } from '../../../internal/es.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { ServiceUnavailableError, ValidationError } from '../../errors.js';
import { buildListQuery } from './query.js';
import type { ListCampaignsQuery } from './schema.js';
import { serializeCampaign } from './serialize.js';

/** Elasticsearch's default result window; deep paging beyond it is the read API issue's search_after. */
const MAX_WINDOW = 10_000;

/** GET /v4/campaigns: Elasticsearch read alias <prefix>-campaigns, chains from PostgreSQL. */
export function listCampaignsHandler(deps: ApiDeps) {
  const index = indexNames(deps.config.esIndexPrefix, 'campaigns').read;
  return async (ctx: Context): Promise<void> => {
    const q = ctx.state.query as ListCampaignsQuery;
    if ((q.page + 1) * q.items > MAX_WINDOW) {
      throw new ValidationError([{ field: 'page', message: `must satisfy (page + 1) × items ≤ ${MAX_WINDOW}` }]);
    }
    const now = nowSeconds(deps);
    const [result, chainRows] = await Promise.all([
      deps.es.search<CampaignDocument>({ index, ...buildListQuery(q, now), timeout: `${deps.config.esRequestTimeoutMs}ms` }),
      listChains(deps.pg, deps.config.chains.map((c) => c.id), now),
    ]);
    if (result.timed_out) throw new ServiceUnavailableError('elasticsearch');
    const chains = new Map<number, ChainRecord>(chainRows.map((r) => [r.id, toChainRecord(r)]));
    ctx.body = result.hits.hits.map((hit) => serializeCampaign(hit._source!, chains));
  };
}
