import {
  computeCampaignMetrics,
  computeOpportunityMetrics,
  tvlUsdOf,
  NO_TVL_READING,
  type CampaignMetrics,
  type TvlReading,
  type UnpricedTvlReading,
} from '../indexer/transform/computeMetrics.js';
import { readTvl } from '../indexer/fetch/readTvl.js';
import { readNativeApr } from '../indexer/fetch/readNativeApr.js';
import { pricedNativeApr, type NativeAprReading } from '../indexer/transform/nativeApr.js';
import { blockAtOrBefore } from '../indexer/store/blocks.js';
import { tokenDbId } from '../domain/ids.js';
import {
  insertSnapshots,
  loadMetricsCampaigns,
  loadMetricsOpportunities,
  upsertCampaignMetrics,
  upsertOpportunityMetrics,
  type MetricsCampaignRow,
} from '../indexer/store/metrics.js';
import { enqueueOutbox } from '../domain/tables/outbox.js';
import { missingTokens } from '../domain/tables/tokens.js';
import { readTokenMetadata, type TokenRow } from '../domain/readTokenMetadata.js';
import { upsertOpportunityUnderlying } from '../indexer/store/opportunityUnderlying.js';
import { documentsUsingTokens, NATIVE_TOKEN_ADDRESS, upsertTokens } from '../indexer/store/tokens.js';
import { loadTokenPrices } from '../domain/tables/prices.js';
import { toServedPrice, type StoredPrice } from '../domain/prices.js';
import { withTransaction } from '../internal/pg.js';
import type { Job, JobDeps, JobResult } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';
import { announceFigureChanges } from './announceFigureChanges.js';

/**
 * Figures of every campaign and opportunity: TVL from on-chain reads × price, dailyRewards, APR,
 * LIVE/PAST/SOON phase and computation status, stored with their inputs; one history snapshot per
 * run (minute resolution); documents whose served figures changed are queued for re-projection. What
 * a pool or market stands on (its tokens, fee, LLTV), as its TVL read found it, is kept for its name,
 * with the metadata of those tokens not stored yet; a change re-projects the opportunity.
 * Steps: load (PostgreSQL) → read TVL and token metadata (RPC) → compute (pure) → persist.
 * Tables: campaign_metrics, opportunity_metrics, campaign_snapshots, opportunity_snapshots,
 * opportunity_underlying, tokens, search_outbox.
 */
export const computeMetrics: Job = {
  ...jobInfo('metrics'),
  run: (deps) => runMetrics(deps),
};

export type RunMetricsOptions = {
  /** Evaluate as of this time (default: now). Used to backfill history snapshots. */
  at?: Date;
  /** Write only the history snapshots, leaving the current figures and documents alone. */
  snapshotOnly?: boolean;
  /** Only these opportunities and their campaigns (a privacy change recomputes its opportunity at once). */
  opportunityIds?: readonly string[];
};

/** The metrics pipeline; the job runs it as of now, the demo seeder also at past times. */
export async function runMetrics(
  deps: JobDeps,
  { at, snapshotOnly = false, opportunityIds }: RunMetricsOptions = {},
): Promise<JobResult> {
  const started = at ?? new Date();
  const now = Math.floor(started.getTime() / 1000);
  const chainIds = deps.config.chains.map((c) => c.id);
  const only = opportunityIds ? new Set(opportunityIds) : null;
  const [campaigns, opportunities] = await Promise.all([
    loadMetricsCampaigns(deps.pg, chainIds).then((rows) =>
      only ? rows.filter((c) => only.has(c.opportunity_id)) : rows,
    ),
    loadMetricsOpportunities(deps.pg, chainIds).then((rows) => (only ? rows.filter((o) => only.has(o.id)) : rows)),
  ]);

  const readings = new Map<string, UnpricedTvlReading>();
  const natives = new Map<string, NativeAprReading>();
  const newTokens: TokenRow[] = [];
  for (const chain of deps.config.chains) {
    const client = deps.rpc.get(chain.id);
    if (!client || deps.signal.aborted) continue;
    const ofChain = opportunities.filter((o) => o.chain_id === chain.id);
    try {
      for (const [id, reading] of await readTvl(client, ofChain)) readings.set(id, reading);
    } catch (error) {
      // The chain's node failed the reads (not one target: those fail alone, as NONE): its
      // opportunities have no TVL this run, the other chains' are computed.
      deps.logger.error({ msg: 'TVL reads failed', chain_id: chain.id, opportunities: ofChain.length, err: error });
    }
    if (!snapshotOnly) newTokens.push(...(await underlyingTokenMetadata(deps, client, ofChain, readings)));
    try {
      const at = (chainId: number, t: number) => blockAtOrBefore(deps.pg, chainId, t);
      for (const [id, native] of await readNativeApr(client, ofChain, readings, at)) natives.set(id, native);
    } catch (error) {
      // Left out: their nativeAprRecord.status is read-failed (NO_NATIVE_APR).
      deps.logger.error({ msg: 'native APR reads failed', chain_id: chain.id, err: error });
    }
  }
  const tokenIds = [
    ...campaigns.map((c) => c.reward_token_id ?? tokenDbId(c.chain_id, c.reward_token)),
    ...[...readings.values()].flatMap((r) => r.tokens.map((t) => t.tokenId)),
    ...[...natives.values()].flatMap((n) => n.fees?.tokens.map((t) => t.tokenId) ?? []),
  ];
  const prices = await loadTokenPrices(deps.pg, [...new Set(tokenIds)], started, deps.config.prices.maxAgeSeconds);

  const priced = new Map(
    [...readings].map(([id, r]): [string, TvlReading] => [
      id,
      { ...r, tokens: r.tokens.map((t) => ({ ...t, price: prices.get(t.tokenId) })) },
    ]),
  );
  const tvlOf = (opportunityId: string) => {
    const r = priced.get(opportunityId);
    return r ? tvlUsdOf(r) : null;
  };
  // A pool's fees become an APR only now: they need their tokens' prices and the TVL in USD.
  const nativeOf = (opportunityId: string) => {
    const n = natives.get(opportunityId);
    return n ? pricedNativeApr(n, prices, tvlOf(opportunityId)) : undefined;
  };
  const campaignMetrics = campaigns.map((c) => ({
    row: c,
    metrics: computeCampaignMetrics(toInput(c, prices), tvlOf(c.opportunity_id), now, now),
  }));
  const byOpportunity = new Map<string, typeof campaignMetrics>();
  // Opportunity figures (APR, daily rewards, records and their breakdowns) are public projections:
  // built from public campaigns only (README "Campaign visibility").
  for (const c of campaignMetrics) {
    if (c.row.is_private) continue;
    const list = byOpportunity.get(c.row.opportunity_id);
    if (list) list.push(c);
    else byOpportunity.set(c.row.opportunity_id, [c]);
  }
  const opportunityMetrics = opportunities.map((o) =>
    computeOpportunityMetrics(
      o.id,
      (byOpportunity.get(o.id) ?? []).map(({ row, metrics }) => ({
        ...metrics,
        campaignId: row.campaign_id,
        amount: row.amount,
        token: tokenOf(row, prices),
      })),
      priced.get(o.id) ?? NO_TVL_READING,
      now,
      nativeOf(o.id),
    ),
  );

  const ts = new Date(Math.floor(now / 60) * 60_000);
  const changed = await withTransaction(deps.pg, async (tx) => {
    if (snapshotOnly) {
      await insertSnapshots(
        tx,
        campaignMetrics.map((x) => x.metrics),
        opportunityMetrics,
        ts,
      );
      return { campaigns: 0, opportunities: 0, announced: { ended: 0, opportunities: 0 } };
    }
    const c = await upsertCampaignMetrics(
      tx,
      campaignMetrics.map((x) => x.metrics),
      started,
      ts,
    );
    const o = await upsertOpportunityMetrics(tx, opportunityMetrics, started, ts);
    // Names and tokens of pools and markets: their tokens' rows first, then what they stand on.
    await upsertTokens(tx, newTokens);
    const named = await upsertOpportunityUnderlying(
      tx,
      [...readings].flatMap(([opportunityId, r]) =>
        r.underlying ? [{ opportunityId, underlying: r.underlying }] : [],
      ),
      started,
    );
    const usingNew = await Promise.all(
      [...new Set(newTokens.map((t) => t.chainId))].map((chainId) =>
        documentsUsingTokens(
          tx,
          chainId,
          newTokens.filter((t) => t.chainId === chainId).map((t) => t.address),
        ),
      ),
    );
    await enqueueOutbox(tx, 'campaign', [...new Set([...c, ...usingNew.flatMap((d) => d.campaigns)])]);
    await enqueueOutbox(tx, 'opportunity', [...new Set([...o, ...named, ...usingNew.flatMap((d) => d.opportunities)])]);
    const announced = await announceFigureChanges(tx, {
      campaigns: campaignMetrics,
      opportunities: opportunityMetrics,
      chainOf: new Map(opportunities.map((x) => [x.id, x.chain_id])),
      thresholdBps: deps.config.eventAnnouncements.figureThresholdBps,
    });
    return { campaigns: c.length, opportunities: o.length, announced };
  });
  // LIVE campaigns valued without their reward token (GET /v4/health counts the same campaigns from the stored run).
  const unpriced = campaignMetrics.filter((x) => x.metrics.dailyRewardsUsd === null);
  const missingPrices = unpriced.length;
  if (missingPrices)
    deps.logger.warn({
      msg: 'LIVE campaigns without a fresh reward price',
      count: missingPrices,
      // Named by chain, address and symbol (the internal ids told an operator nothing).
      tokens: [
        ...new Set(
          unpriced.map((x) => `${x.row.reward_symbol ?? '?'} ${x.row.chain_id}:${x.row.reward_token.toLowerCase()}`),
        ),
      ].sort(),
    });
  return {
    ranges: [],
    counts: {
      campaigns: campaigns.length,
      opportunities: opportunities.length,
      changedCampaigns: changed.campaigns,
      changedOpportunities: changed.opportunities,
      campaignsEnded: changed.announced.ended,
      opportunitiesAnnounced: changed.announced.opportunities,
      missingPrices,
    },
  };
}

/**
 * ERC20 metadata of the pool and market tokens this chain's readings found that have no token row yet
 * (the native token, address 0, is the tokens job's); a failed read leaves them for the next run.
 */
async function underlyingTokenMetadata(
  deps: JobDeps,
  client: NonNullable<ReturnType<JobDeps['rpc']['get']>>,
  ofChain: { id: string }[],
  readings: Map<string, UnpricedTvlReading>,
): Promise<TokenRow[]> {
  const addresses = ofChain
    .flatMap((o) => readings.get(o.id)?.underlying?.tokens ?? [])
    .filter((a) => a !== NATIVE_TOKEN_ADDRESS);
  if (!addresses.length) return [];
  try {
    const missing = await missingTokens(deps.pg, client.chain.id, addresses);
    return missing.length ? await readTokenMetadata(client, missing, deps.logger) : [];
  } catch (error) {
    deps.logger.error({ msg: 'pool token metadata reads failed', chain_id: client.chain.id, err: error });
    return [];
  }
}

function toInput(
  c: MetricsCampaignRow,
  prices: Map<string, StoredPrice>,
): Parameters<typeof computeCampaignMetrics>[0] {
  const rewardTokenId = c.reward_token_id ?? tokenDbId(c.chain_id, c.reward_token);
  return {
    id: c.id,
    campaignId: c.campaign_id,
    opportunityId: c.opportunity_id,
    rewardTokenId,
    rewardDecimals: c.reward_decimals ?? 18,
    amount: c.amount,
    start: Number(c.start_timestamp),
    end: Number(c.end_timestamp),
    rewardPrice: c.reward_decimals === null ? undefined : prices.get(rewardTokenId),
  };
}

/** The reward token of a campaign as a full Token record (TOKEN_RECORD_SCHEMA, domain/documents/recordSchemas.ts), its price served as the API serves prices. */
function tokenOf(c: MetricsCampaignRow, prices: Map<string, StoredPrice>): Record<string, unknown> {
  const id = c.reward_token_id ?? tokenDbId(c.chain_id, c.reward_token);
  return {
    id,
    name: c.reward_name,
    chainId: c.chain_id,
    address: c.reward_token,
    decimals: c.reward_decimals ?? 18,
    symbol: c.reward_symbol ?? '',
    icon: c.reward_icon ?? '',
    verified: c.reward_verified ?? false,
    isNative: c.reward_is_native ?? false,
    isTest: c.reward_is_test ?? false,
    type: c.reward_type ?? 'TOKEN',
    ...toServedPrice(prices.get(id)),
    ...(c.reward_display_symbol ? { displaySymbol: c.reward_display_symbol } : {}),
  };
}

export type { CampaignMetrics };
