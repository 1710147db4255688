import { createHttpPriceSource } from '../indexer/fetch/prices/httpPriceSource.js';
import { createOnchainFeedSource } from '../indexer/fetch/prices/onchainFeedSource.js';
import { selectPrices } from '../indexer/transform/selectPrices.js';
import { toPriceRows } from '../indexer/transform/toPriceRows.js';
import type { PriceMap, PriceSource, PriceToken } from '../indexer/fetch/prices/types.js';
import { enqueueOutbox } from '../domain/tables/outbox.js';
import {
  campaignsUsingTokens,
  listTokensToPrice,
  upsertHourlyPrices,
  upsertPriceHistory,
  upsertTokenPrices,
} from '../indexer/store/prices.js';
import { withTransaction } from '../internal/pg.js';
import { createProgress } from '../internal/progress.js';
import type { Job, JobDeps } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

const NAME = 'prices';

/**
 * The price sources of a deployment, highest priority first: the chains' on-chain feeds
 * (config.chains[].priceFeeds, read through deps.rpc), then the HTTP coins API when
 * config.prices.apiUrl is set.
 */
export function createPriceSources(deps: Pick<JobDeps, 'config' | 'logger' | 'rpc'>): PriceSource[] {
  const sources: PriceSource[] = [createOnchainFeedSource({ clients: deps.rpc, logger: deps.logger })];
  const { apiUrl, apiTimeoutMs } = deps.config.prices;
  if (apiUrl)
    sources.push(
      createHttpPriceSource({ apiUrl, timeoutMs: apiTimeoutMs, chains: deps.config.chains, logger: deps.logger }),
    );
  return sources;
}

/** Pure: why no token can be priced (no feed on any chain, no PRICE_API_URL); null when a source is configured. */
export function noPriceSource(config: JobDeps['config']): string | null {
  if (config.prices.apiUrl) return null;
  if (config.chains.some((c) => Object.keys(c.priceFeeds ?? {}).length > 0)) return null;
  return 'no price source configured: PRICE_API_URL is not set and no chain of CHAINS has priceFeeds';
}

/**
 * USD prices of every stored token (a run with no price source configured is recorded as skipped). Steps: plan (the tokens table) → fetch (each source in
 * priority order, asked only for tokens not priced yet) → select/transform (pure) → persist (one
 * transaction: current prices, daily and hourly history, and the ids of campaigns whose reward token got a
 * new price enqueued for the search projector; the publish job drains the outbox).
 * A source that is down after its bounded retries fails the run loudly; nothing is written and the
 * next run starts over (prices carry no cursor). Prices older than config.prices.maxAgeSeconds are
 * stored with their own time and counted as stale, never refreshed to look current.
 * Tables: tokens (read), campaigns (read), token_prices, token_price_history, token_price_hourly, search_outbox.
 */
export const refreshPrices: Job = {
  ...jobInfo(NAME),
  async run(deps) {
    const unconfigured = noPriceSource(deps.config);
    if (unconfigured) return { ranges: [], counts: { tokens: 0, priced: 0 }, skipped: unconfigured };
    const tokens = await listTokensToPrice(deps.pg);
    const sources = createPriceSources(deps);
    const selected = selectPrices(await fetchAll(deps, sources, tokens));
    const { prices, history, stale } = toPriceRows({
      selected,
      fetchedAt: new Date(),
      maxAgeSeconds: deps.config.prices.maxAgeSeconds,
    });
    if (deps.signal.aborted) {
      deps.logger.info({ msg: 'aborted before persist; nothing written', priced: prices.length });
      return { ranges: [], counts: { tokens: tokens.length, priced: 0 } };
    }
    if (stale.length)
      deps.logger.warn({
        msg: 'stale prices stored as stale',
        count: stale.length,
        token_ids: stale.slice(0, 20),
        max_age_s: deps.config.prices.maxAgeSeconds,
      });
    const { changed, historyRows, hourlyRows, campaigns } = await withTransaction(deps.pg, async (tx) => {
      const changed = await upsertTokenPrices(tx, prices);
      const historyRows = await upsertPriceHistory(tx, history);
      const hourlyRows = await upsertHourlyPrices(tx, history);
      const campaigns = await campaignsUsingTokens(tx, changed);
      await enqueueOutbox(tx, 'campaign', campaigns);
      return { changed, historyRows, hourlyRows, campaigns };
    });
    deps.logger[changed.length ? 'info' : 'debug']({
      msg: 'prices persisted',
      priced: prices.length,
      changed: changed.length,
      stale: stale.length,
      campaigns_enqueued: campaigns.length,
    });
    const bySource: Record<string, number> = Object.fromEntries(
      sources.map((s) => [`priced_${s.name.toLowerCase()}`, 0]),
    );
    for (const { priceSource } of prices) {
      const key = `priced_${priceSource.toLowerCase()}`;
      bySource[key] = (bySource[key] ?? 0) + 1;
    }
    return {
      ranges: [],
      counts: {
        tokens: tokens.length,
        priced: prices.length,
        unpriced: tokens.length - prices.length,
        stale: stale.length,
        changed: changed.length,
        history: historyRows,
        hourly: hourlyRows,
        campaigns: campaigns.length,
        ...bySource,
      },
    };
  },
};

/** Asks each source, in priority order, for the tokens no earlier source priced. */
async function fetchAll(
  deps: JobDeps,
  sources: readonly PriceSource[],
  tokens: readonly PriceToken[],
): Promise<PriceMap[]> {
  const results: PriceMap[] = [];
  const progress = createProgress({ logger: deps.logger, total: tokens.length, unit: 'tokens' });
  let remaining = tokens;
  for (const source of sources) {
    if (deps.signal.aborted || !remaining.length) break;
    const started = Date.now();
    const prices = await source.fetchPrices({ tokens: remaining, signal: deps.signal });
    results.push(prices);
    deps.logger.debug({
      msg: 'prices fetched',
      price_source: source.name,
      requested: remaining.length,
      priced: prices.size,
      duration_ms: Date.now() - started,
    });
    remaining = remaining.filter((t) => !prices.has(t.id));
    progress.advance(prices.size, { price_source: source.name });
  }
  return results;
}
