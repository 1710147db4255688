import { CAMPAIGN_EVENTS } from '../indexer/abis/distributionCreator.js';
import { decodeCampaignOverride, decodeCampaignReallocation, decodeNewCampaign } from '../indexer/decode.js';
import { getLogsAdaptive } from '../indexer/getLogsAdaptive.js';
import { readTokenMetadata } from '../indexer/readTokenMetadata.js';
import { planRanges, type BlockRange } from '../indexer/plan.js';
import { projectOutbox } from '../indexer/projectOutbox.js';
import type { ChainClient } from '../indexer/rpc.js';
import { loadBlockTimestamps } from '../indexer/store/blockTimestamps.js';
import { currentOpportunityIds, upsertCampaigns, upsertOpportunities, upsertOverrides, upsertReallocations } from '../indexer/store/campaigns.js';
import { assertCanonical, canonicalHead, lockChainForWrite, ReorgDetectedError } from '../indexer/store/chainGuard.js';
import { upsertChains } from '../indexer/store/chains.js';
import { getCursor, setCursor } from '../indexer/store/cursor.js';
import { enqueueOutbox } from '../indexer/store/outbox.js';
import { missingTokens, upsertTokens, type TokenRow } from '../indexer/store/tokens.js';
import { toCampaignRows, toOpportunityRows, toOverrideRows, toReallocationRows } from '../indexer/transform/campaigns.js';
import { withTransaction } from '../internal/pg.js';
import { createProgress } from './progress.js';
import type { Job, JobDeps, JobRange } from './types.js';

const NAME = 'campaigns';

/** What one block range of DistributionCreator logs turns into. */
type Batch = ReturnType<typeof transformBatch>;

/**
 * DistributionCreator logs of each chain (NewCampaign, CampaignOverride, CampaignReallocation) →
 * campaigns, their override history, reallocations, opportunities and tokens in PostgreSQL, one
 * transaction per range with the search outbox entries and the cursor; then the outbox is projected
 * to Elasticsearch. Ranges stop at the canonical headers stored by the blocks job, and a batch read
 * from blocks that are no longer canonical is refused (the reorg is rolled back by the blocks job).
 * Steps: plan → fetch → decode/transform → persist → publish.
 * Tables: campaigns, campaign_overrides, campaign_reallocations, opportunities, tokens, search_outbox, cursors.
 */
export const syncCampaigns: Job = {
  name: NAME,
  defaultCron: '*/5 * * * * *',
  description: 'DistributionCreator events into PostgreSQL, then campaign and opportunity documents to Elasticsearch.',
  async run(deps) {
    await upsertChains(deps.pg, deps.config.chains);
    const ranges: JobRange[] = [];
    const counts = { campaigns: 0, overrides: 0, reallocations: 0, reorgRetries: 0 };
    for (const chainClient of deps.rpc.values()) {
      const { chain } = chainClient;
      const head = await canonicalHead(deps.pg, chain.id);
      if (head === null) continue;
      const cursor = await getCursor(deps.pg, NAME, chain.id);
      const planned = planRanges({ cursor, startBlock: chain.startBlock, head, confirmations: 0, maxRange: deps.config.indexer.maxLogRange, maxRanges: 1000 });
      const progress = createProgress({ logger: deps.logger, total: planned.reduce((n, r) => n + r.to - r.from + 1, 0), unit: 'blocks' });
      try {
        for (const range of planned) {
          if (deps.signal.aborted) break;
          const batch = transformBatch(chain.id, await fetchBatch(deps, chainClient, range));
          const tokens = await fetchTokenMetadata(deps, chainClient, batch.tokenAddresses);
          await persistBatch(deps, chain.id, range, batch, tokens);
          counts.campaigns += batch.campaigns.length;
          counts.overrides += batch.overrides.length;
          counts.reallocations += batch.reallocations.length;
          ranges.push({ chainId: chain.id, ...range });
          const written = batch.campaigns.length + batch.overrides.length + batch.reallocations.length;
          deps.logger[written ? 'info' : 'debug']({ msg: 'batch persisted', chain_id: chain.id, from_block: range.from, to_block: range.to,
            campaigns: batch.campaigns.length, overrides: batch.overrides.length, reallocations: batch.reallocations.length });
          progress.advance(range.to - range.from + 1, { chain_id: chain.id, to_block: range.to });
        }
      } catch (error) {
        if (!(error instanceof ReorgDetectedError)) throw error;
        // The blocks job rolls the chain back; this chain resumes from its cursor on the next run.
        counts.reorgRetries += 1;
        deps.logger.warn({ msg: 'batch refused: chain reorganized under it', chain_id: chain.id, reason: error.message });
      }
    }
    const { published, deleted } = await projectOutbox({ ...deps });
    return { ranges, counts: { ...counts, published, deleted } };
  },
};

async function fetchBatch(deps: JobDeps, { chain, client }: ChainClient, range: BlockRange) {
  const logs = await getLogsAdaptive({ client, address: chain.distributionCreator, events: CAMPAIGN_EVENTS, range, retries: deps.config.indexer.rpcRetries, signal: deps.signal });
  const timestamps = await loadBlockTimestamps(deps.pg, chain.id, logs.map((l) => Number(l.blockNumber)));
  return { logs, timestamps };
}

/** Pure: a range's logs → rows, the opportunities touched, the tokens to know, the blocks read. */
function transformBatch(chainId: number, { logs, timestamps }: Awaited<ReturnType<typeof fetchBatch>>) {
  const campaigns = toCampaignRows(logs.filter((l) => l.eventName === 'NewCampaign').map((l) => decodeNewCampaign(chainId, l as never)), timestamps);
  const overrides = toOverrideRows(logs.filter((l) => l.eventName === 'CampaignOverride').map((l) => decodeCampaignOverride(chainId, l as never)), timestamps);
  const reallocations = toReallocationRows(logs.filter((l) => l.eventName === 'CampaignReallocation').map((l) => decodeCampaignReallocation(chainId, l as never)), timestamps);
  const configs = [...campaigns, ...overrides];
  const blockHashes = new Map(logs.map((l) => [Number(l.blockNumber), l.blockHash as string]));
  // Targets on this chain are tokens too (names of opportunities); identifiers that are not addresses are skipped.
  const tokenAddresses = [...campaigns.map((c) => c.rewardToken), ...configs.filter((c) => c.computeChainId === chainId && /^0x[0-9a-f]{40}$/.test(c.mainParameter)).map((c) => c.mainParameter)];
  return { campaigns, overrides, reallocations, opportunities: toOpportunityRows(configs), blockHashes, tokenAddresses };
}

async function persistBatch(deps: JobDeps, chainId: number, range: BlockRange, batch: Batch, tokens: TokenRow[]): Promise<void> {
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
    // A parent's document lists its children: new or moved sub-campaigns refresh their parents too.
    const parents = batch.campaigns.map((c) => c.parentCampaignId).filter((id): id is string => id !== null);
    await enqueueOutbox(tx, 'campaign', [...new Set([...batch.campaigns.map((c) => c.id), ...changed, ...parents])]);
    await enqueueOutbox(tx, 'opportunity', [...new Set([...batch.opportunities.map((o) => o.id), ...previousOpportunities])]);
    await setCursor(tx, NAME, chainId, range.to);
  });
}

/** ERC20 metadata of tokens not stored yet. */
async function fetchTokenMetadata(deps: JobDeps, chainClient: ChainClient, addresses: string[]): Promise<TokenRow[]> {
  const missing = await missingTokens(deps.pg, chainClient.chain.id, addresses);
  return missing.length ? readTokenMetadata(chainClient, missing, deps.logger) : [];
}
