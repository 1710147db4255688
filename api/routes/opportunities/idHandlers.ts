import { recordsFormat } from '../../recordsFormat.js';
import {
  loadOpportunityCampaignTree,
  loadOpportunityHistory,
  type HistoryMetric,
} from '../../reads/opportunityHistory.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import { getOpportunityDocument, loadCampaignsOf } from '../../reads/opportunities/readContext.js';
import { currentChainContext } from '../../chainRecords.js';
import type { Handler } from '../../validate.js';
import type {
  OpportunityStatusFilter,
  opportunityCampaignsQuery,
  opportunityIdParams,
  recordsQuery,
  storingIdsQuery,
} from '../../reads/opportunities/schema.js';
import { serializeOpportunity } from '../../reads/opportunities/serialize.js';
import type { RecordsColumn } from '../../reads/opportunities/responses.js';
import { buildStoringIdTrees } from './storingIds.js';

/** One Opportunity record by numeric or composite id; NotFoundError when absent. */
export async function getOpportunity(deps: ApiDeps, id: string) {
  const now = nowSeconds(deps);
  const [doc, { chains }] = await Promise.all([getOpportunityDocument(deps, id), currentChainContext(deps, now)]);
  return serializeOpportunity(doc, chains, now);
}

/** GET /v4/opportunities/{id}: getOpportunity, 404 when absent. */
export function getOpportunityHandler(deps: ApiDeps): Handler<{ params: typeof opportunityIdParams }> {
  return async (ctx) => {
    ctx.body = await getOpportunity(deps, ctx.state.params.id);
  };
}

/**
 * GET /v4/opportunities/{id}/campaigns: the Opportunity with its Campaign records (`campaigns=false`
 * omits them), of every token type by default, POINT included (unlike the list, which hides point-only
 * opportunities unless `point=true`); `tokenTypes` narrows.
 */
export function opportunityCampaignsHandler(
  deps: ApiDeps,
): Handler<{ params: typeof opportunityIdParams; query: typeof opportunityCampaignsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const now = nowSeconds(deps);
    const [doc, { chains }] = await Promise.all([
      getOpportunityDocument(deps, ctx.state.params.id),
      currentChainContext(deps, now),
    ]);
    const campaigns = q.campaigns ? ((await loadCampaignsOf(deps, [doc.id], chains)).get(doc.id) ?? []) : [];
    const kept = campaigns.filter(
      (c) =>
        (q.test || !c.rewardToken.isTest) &&
        (!q.tokenTypes?.length || q.tokenTypes.join(',').split(',').includes(c.rewardToken.type)) &&
        (!q.excludeSubCampaigns || !c.parentCampaignId),
    );
    ctx.body = { ...serializeOpportunity(doc, chains, now), campaigns: kept };
  };
}

/** GET /v4/opportunities/{id}/storing-ids: storing-id trees of the root campaigns (campaigns_current). */
export function storingIdsHandler(
  deps: ApiDeps,
): Handler<{ params: typeof opportunityIdParams; query: typeof storingIdsQuery }> {
  return async (ctx) => {
    const doc = await getOpportunityDocument(deps, ctx.state.params.id);
    const statuses = ctx.state.query.campaignStatus.split(',') as OpportunityStatusFilter[];
    ctx.body = buildStoringIdTrees(
      await loadOpportunityCampaignTree(deps.pg, doc.id),
      doc.id,
      statuses,
      nowSeconds(deps),
    );
  };
}

const COLUMN: Record<HistoryMetric, RecordsColumn> = {
  apr: 'apr',
  native_apr: 'apr',
  tvl: 'tvl',
  daily_rewards: 'dailyRewards',
};

/**
 * GET /v4/opportunities/{id}/{apr|tvl|native-apr|daily-rewards}-records: opportunity_snapshots weighted
 * by time per grain (loadOpportunityHistory), items `{ timestamp, date, apr|tvl|dailyRewards }`; CSV (header row, same columns) with
 * `format=csv` or when Accept asks for text/csv.
 */
export function recordsHandler(
  deps: ApiDeps,
  metric: HistoryMetric,
): Handler<{ params: typeof opportunityIdParams; query: typeof recordsQuery }> {
  return async (ctx) => {
    const q = ctx.state.query;
    const doc = await getOpportunityDocument(deps, ctx.state.params.id);
    const rows = await loadOpportunityHistory(deps.pg, {
      opportunityId: doc.id,
      metric,
      grain: q.grain,
      from: q.from,
      to: q.to,
      page: q.page,
      items: q.items,
    });
    const column = COLUMN[metric];
    const records = rows.map((r) => ({
      timestamp: String(r.bucket),
      date: new Date(r.bucket * 1000).toISOString(),
      [column]: r.value,
    }));
    if (recordsFormat(ctx, q.format) === 'csv') {
      ctx.type = 'text/csv';
      // An unknown value is an empty cell, never 0.
      ctx.body = `${[`timestamp,date,${column}`, ...records.map((r) => `${r.timestamp},${r.date},${r[column] ?? ''}`)].join('\n')}\n`;
      return;
    }
    ctx.body = records;
  };
}
