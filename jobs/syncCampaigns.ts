import { CAMPAIGN_EVENTS } from '../domain/abis/distributionCreator.js';
import { allCampaignEvents, decodeCampaignLogs } from '../indexer/decode/campaignLogs.js';
import { fetchNextLogs } from '../indexer/fetch/getLogsAdaptive.js';
import { createLogSpan, type LogSpan } from '../indexer/fetch/logSpan.js';
import { readTokenMetadata } from '../domain/readTokenMetadata.js';
import type { BlockRange } from '../indexer/fetch/planRanges.js';
import { startBackgroundProjector, type BackgroundProjector } from '../indexer/project/backgroundProjector.js';
import { projectOutbox } from '../domain/projection/projectOutbox.js';
import { outboxHighWater } from '../domain/projection/outbox.js';
import type { ChainClient } from '../internal/rpc.js';
import { loadBlockTimestamps } from '../indexer/store/blockTimestamps.js';
import {
  currentOpportunityIds,
  upsertCampaigns,
  upsertOpportunities,
  upsertOverrides,
  upsertReallocations,
} from '../indexer/store/campaigns.js';
import { assertCanonical, canonicalHead, lockChainForWrite, ReorgDetectedError } from '../indexer/store/chainGuard.js';
import { upsertChains } from '../domain/tables/chains.js';
import { getCursor, setCursor } from '../indexer/store/cursor.js';
import { enqueueOutbox } from '../domain/tables/outbox.js';
import { upsertTokens } from '../indexer/store/tokens.js';
import { missingTokens } from '../domain/tables/tokens.js';
import type { TokenRow } from '../domain/readTokenMetadata.js';
import {
  toCampaignRows,
  toOpportunityRows,
  toOverrideRows,
  toReallocationRows,
} from '../indexer/transform/campaigns.js';
import { toCampaignEvents } from '../indexer/transform/events.js';
import { toRewardTokenMinAmountRows } from '../indexer/transform/rewardTokens.js';
import { upsertRewardTokenMinAmounts } from '../indexer/store/rewardTokens.js';
import { appendEvents } from '../domain/tables/events.js';
import { withTransaction } from '../internal/pg.js';
import { createProgress } from '../internal/progress.js';
import type { Job, JobDeps, JobRange } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

const NAME = 'campaigns';

/** What one block range of DistributionCreator logs turns into. */
type Batch = ReturnType<typeof transformBatch>;

/**
 * DistributionCreator logs of each chain (NewCampaign, CampaignOverride, CampaignReallocation,
 * RewardTokenMinimumAmountUpdated) → campaigns, their override history, reallocations,
 * opportunities, the reward-token whitelist and tokens in PostgreSQL, one
 * transaction per range with the search outbox entries and the cursor; then the outbox is projected
 * to Elasticsearch. Ranges stop at the canonical headers stored by the blocks job, and a batch read
 * from blocks that are no longer canonical is refused (the reorg is rolled back by the blocks job).
 * Steps: fetch (the next range, while the current one is written) → decode/transform → persist → publish
 * (its own writes first: the outbox entries after the run's start, then any older ones).
 * Ranges: the span of each getLogs call is learned per run (indexer/fetch/logSpan.ts), up to INDEXER_MAX_LOG_RANGE,
 * aiming at about 2,000 logs per batch.
 * Tables: campaigns, campaign_overrides, campaign_reallocations, opportunities, reward_token_min_amounts, tokens, search_outbox, events
 * (campaign.created / campaign.changed), cursors.
 */
export const syncCampaigns: Job = {
  ...jobInfo(NAME),
  async run(deps) {
    const outboxMark = await outboxHighWater(deps.pg);
    await upsertChains(deps.pg, deps.config.chains);
    const ranges: JobRange[] = [];
    const counts = { campaigns: 0, overrides: 0, reallocations: 0, reorgRetries: 0 };
    // Its own writes are published while the next ranges are fetched and written.
    const projector = startBackgroundProjector({ ...deps, afterId: outboxMark });
    try {
      await indexChains(deps, { ranges, counts, projector });
    } catch (error) {
      await projector.abandon();
      throw error;
    }
    // Its own writes first (searchable at once, ahead of an older backlog such as another chain's
    // catch-up), then whatever else waits (a rollback's or a killed run's entries), as before.
    const own = await projector.finish();
    const rest = await projectOutbox({ ...deps });
    return {
      ranges,
      counts: { ...counts, published: own.published + rest.published, deleted: own.deleted + rest.deleted },
    };
  },
};

/** Each chain's next ranges: fetched, decoded, written (one transaction per range), then handed to the projector. */
async function indexChains(
  deps: JobDeps,
  {
    ranges,
    counts,
    projector,
  }: {
    ranges: JobRange[];
    counts: { campaigns: number; overrides: number; reallocations: number; reorgRetries: number };
    projector: BackgroundProjector;
  },
): Promise<void> {
  for (const chainClient of deps.rpc.values()) {
    const { chain } = chainClient;
    const head = await canonicalHead(deps.pg, chain.id);
    if (head === null) continue;
    const cursor = await getCursor(deps.pg, NAME, chain.id);
    const from = cursor === null ? chain.startBlock : Math.max(cursor + 1, chain.startBlock);
    // One run reads a bounded number of blocks (the configured range, 1000 times) up to the stored canonical head.
    const limit = Math.min(head, from + deps.config.indexer.maxLogRange * MAX_RANGES_PER_RUN - 1);
    if (from > limit) continue;
    const progress = createProgress({ logger: deps.logger, total: limit - from + 1, unit: 'blocks' });
    const span = createLogSpan({
      max: deps.config.indexer.maxLogRange,
      initial: INITIAL_SPAN,
      targetLogs: TARGET_LOGS_PER_BATCH,
    });
    // The next range is fetched while the current one is decoded and written (the node and the database work in parallel).
    const fetchFrom = (at: number) => fetchBatch(deps, chainClient, { from: at, limit, span });
    let next: Promise<Fetched> | null = fetchFrom(from);
    try {
      while (next && !deps.signal.aborted) {
        const fetched: Fetched = await next;
        const { range } = fetched;
        next = range.to < limit ? fetchFrom(range.to + 1) : null;
        const t0 = performance.now();
        const batch = transformBatch(chain.id, fetched);
        const tokens = await fetchTokenMetadata(deps, chainClient, batch.tokenAddresses);
        const t1 = performance.now();
        await persistBatch(deps, chain.id, range, batch, tokens);
        counts.campaigns += batch.campaigns.length;
        counts.overrides += batch.overrides.length;
        counts.reallocations += batch.reallocations.length;
        addRange(ranges, chain.id, range);
        projector.poke();
        const written = batch.campaigns.length + batch.overrides.length + batch.reallocations.length;
        deps.logger[written ? 'info' : 'debug']({
          msg: 'batch persisted',
          chain_id: chain.id,
          from_block: range.from,
          to_block: range.to,
          campaigns: batch.campaigns.length,
          overrides: batch.overrides.length,
          reallocations: batch.reallocations.length,
          fetch_ms: Math.round(fetched.ms),
          transform_ms: Math.round(t1 - t0),
          persist_ms: Math.round(performance.now() - t1),
        });
        progress.advance(range.to - range.from + 1, { chain_id: chain.id, to_block: range.to });
      }
    } catch (error) {
      if (!(error instanceof ReorgDetectedError)) throw error;
      // The blocks job rolls the chain back; this chain resumes from its cursor on the next run.
      counts.reorgRetries += 1;
      deps.logger.warn({
        msg: 'batch refused: chain reorganized under it',
        chain_id: chain.id,
        reason: error.message,
      });
    } finally {
      // A prefetch still in flight (after a failure, a reorg or an abort) is not needed; its own failure is not reported.
      next?.catch(() => undefined);
    }
  }
}

/**
 * Logs one batch aims at (the span follows the chain's density, indexer/fetch/logSpan.ts): the rows a
 * batch holds in memory, and so the indexer's RSS, stay bounded however dense the chain, and smaller
 * batches reach the background projector sooner. bench:indexer at 10k campaigns: 2,000 (with the
 * small first span below and two background drains) took 1.8–2.0 s end to end against 2.1–2.7 s at 5,000.
 */
const TARGET_LOGS_PER_BATCH = 2000;

/** Blocks of a run's first getLogs call: small, so the first rows reach PostgreSQL and the projector early; it doubles while the chain is sparse. */
const INITIAL_SPAN = 20;

/** Blocks read per chain and run at most: the configured log range, this many times. */
const MAX_RANGES_PER_RUN = 1000;

type Fetched = Awaited<ReturnType<typeof fetchBatch>>;

/** Appends a processed range to the run's record, merged with the previous one when contiguous. */
function addRange(ranges: JobRange[], chainId: number, range: BlockRange): void {
  const last = ranges[ranges.length - 1];
  if (last && last.chainId === chainId && last.to + 1 === range.from) last.to = range.to;
  else ranges.push({ chainId, ...range });
}

/** The logs of the next range the span allows from `from`, decoded, with the timestamps of their blocks. */
async function fetchBatch(
  deps: JobDeps,
  { chain, client }: ChainClient,
  { from, limit, span }: { from: number; limit: number; span: LogSpan },
) {
  const t0 = performance.now();
  const { range, logs } = await fetchNextLogs({
    client,
    address: chain.distributionCreator,
    events: CAMPAIGN_EVENTS,
    from,
    limit,
    span,
    retries: deps.config.indexer.rpcRetries,
    signal: deps.signal,
  });
  const events = decodeCampaignLogs(chain.id, logs);
  const timestamps = await loadBlockTimestamps(
    deps.pg,
    chain.id,
    allCampaignEvents(events).map((e) => e.blockNumber),
  );
  return { range, events, timestamps, ms: performance.now() - t0 };
}

/** Pure: a range's logs → rows, the opportunities touched, the tokens to know, the blocks read. */
function transformBatch(chainId: number, { events, timestamps }: Fetched) {
  const campaigns = toCampaignRows(events.newCampaigns, timestamps);
  const overrides = toOverrideRows(events.overrides, timestamps);
  const reallocations = toReallocationRows(events.reallocations, timestamps);
  const configs = [...campaigns, ...overrides];
  const blockHashes = new Map(allCampaignEvents(events).map((e) => [e.blockNumber, e.blockHash as string]));
  // Targets on this chain are tokens too (names of opportunities); identifiers that are not addresses are skipped.
  const rewardTokenMinAmounts = toRewardTokenMinAmountRows(events.rewardTokenMinAmounts);
  // Whitelisted tokens are stored as tokens too, so GET /v4/tokens/reward serves their metadata (#33).
  const tokenAddresses = [
    ...campaigns.map((c) => c.rewardToken),
    ...rewardTokenMinAmounts.map((r) => r.token),
    ...configs
      .filter((c) => c.computeChainId === chainId && /^0x[0-9a-f]{40}$/.test(c.mainParameter))
      .map((c) => c.mainParameter),
  ];
  return {
    campaigns,
    overrides,
    reallocations,
    rewardTokenMinAmounts,
    opportunities: toOpportunityRows(configs),
    blockHashes,
    tokenAddresses,
  };
}

async function persistBatch(
  deps: JobDeps,
  chainId: number,
  range: BlockRange,
  batch: Batch,
  tokens: TokenRow[],
): Promise<void> {
  await withTransaction(deps.pg, async (tx) => {
    await lockChainForWrite(tx, chainId);
    await assertCanonical(tx, chainId, range.to, batch.blockHashes);
    await upsertTokens(tx, tokens);
    const changed = [...batch.overrides.map((o) => o.campaignDbId), ...batch.reallocations.map((r) => r.campaignDbId)];
    const previousOpportunities = await currentOpportunityIds(tx, changed);
    await upsertCampaigns(tx, batch.campaigns);
    await upsertOverrides(tx, batch.overrides);
    await upsertReallocations(tx, batch.reallocations);
    await upsertOpportunities(tx, batch.opportunities);
    await upsertRewardTokenMinAmounts(tx, batch.rewardTokenMinAmounts);
    // A parent's document lists its children: new or moved sub-campaigns refresh their parents too.
    const parents = batch.campaigns.map((c) => c.parentCampaignId).filter((id): id is string => id !== null);
    await enqueueOutbox(tx, 'campaign', [...new Set([...batch.campaigns.map((c) => c.id), ...changed, ...parents])]);
    await enqueueOutbox(tx, 'opportunity', [
      ...new Set([...batch.opportunities.map((o) => o.id), ...previousOpportunities]),
    ]);
    await appendEvents(tx, toCampaignEvents(batch));
    await setCursor(tx, NAME, chainId, range.to);
  });
}

/** ERC20 metadata of tokens not stored yet. */
async function fetchTokenMetadata(deps: JobDeps, chainClient: ChainClient, addresses: string[]): Promise<TokenRow[]> {
  const missing = await missingTokens(deps.pg, chainClient.chain.id, addresses);
  return missing.length ? readTokenMetadata(chainClient, missing, deps.logger) : [];
}
