/**
 * Campaign counts in the search benchmark's mix (#33): GET /v4/campaigns/count and a grouped monthly
 * series, through the API, the raw Elasticsearch search our handler sends (the real builders), and
 * hand-written SQL over the campaigns table. Not cross-checked: the bench's campaign documents carry
 * test flags and privacy the SQL does not model.
 */
import { buildCountQuery } from '../../api/reads/campaigns/countQuery.js';
import { toListParams } from '../../api/reads/campaigns/params.js';
import { buildListQuery } from '../../api/reads/campaigns/query.js';
import { countCampaignsQuery, type CountCampaignsQuery, type CountGroup } from '../../api/reads/campaigns/schema.js';
import { ajv } from '../../api/validate.js';
import { visibleCampaignsQuery } from '../../api/visibility/campaignSearch.js';
import type { BenchTargets, Kind, Params } from './searchQueries.js';

const validate = ajv.compile(countCampaignsQuery);

/** The raw search GET /v4/campaigns/count[/by-…] sends for these parameters (anonymous caller). */
async function esCount(t: BenchTargets, p: Params, now: number, group?: CountGroup) {
  const q: Record<string, unknown> = { ...p };
  if (!validate(q)) throw new Error(`invalid bench params ${JSON.stringify(p)}`);
  const { grain, ...list } = q as CountCampaignsQuery;
  const normalized = toListParams(list);
  if ('errors' in normalized) throw new Error(JSON.stringify(normalized.errors));
  const { query } = buildListQuery(normalized.params, now);
  const body = buildCountQuery(query, group, grain);
  const res = await t.es.search(
    {
      index: t.index.replace(/opportunities$/, 'campaigns'),
      ...body,
      query: visibleCampaignsQuery(body['query'] as never, 'none'),
      timeout: `${t.timeoutMs}ms`,
    },
    { requestTimeout: t.timeoutMs },
  );
  if (res.timed_out) throw new Error('elasticsearch timed out');
  return res.aggregations ?? res.hits.total;
}

export const CAMPAIGN_COUNT_KINDS: Kind[] = [
  {
    name: 'campaigns/count LIVE chain',
    filterAndBins: false,
    path: '/v4/campaigns/count',
    // startTimestamp (campaigns starting after it) varies the body, never the answer.
    params: (j) => ({ status: 'LIVE', chainId: '8453', startTimestamp: String(j) }),
    esParams: (t, p, now) => esCount(t, p, now),
    sql: async (t, p, now) =>
      (
        await t.pg.query(
          'SELECT count(*) FROM campaigns WHERE compute_chain_id = $1 AND start_timestamp <= $2 AND end_timestamp > $2 AND start_timestamp > $3',
          [Number(p['chainId']), now, Number(p['startTimestamp'])],
        )
      ).rows[0],
  },
  {
    name: 'campaigns/count/by-protocols month',
    filterAndBins: false,
    path: '/v4/campaigns/count/by-protocols',
    params: (j) => ({ grain: 'month', startTimestamp: String(j) }),
    esParams: (t, p, now) => esCount(t, p, now, 'protocols'),
    sql: async (t, p) =>
      (
        await t.pg.query(
          `SELECT to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, o.type, count(*)
           FROM campaigns c JOIN opportunities o ON o.id = c.opportunity_id WHERE c.start_timestamp > $1 GROUP BY 1, 2`,
          [Number(p['startTimestamp'])],
        )
      ).rows,
  },
];
