import { newCampaignEvent } from '../indexer/abis/distributionCreator.js';
import { erc20MetadataAbi } from '../indexer/abis/erc20.js';
import { decodeNewCampaign, type NewCampaignEvent } from '../indexer/decode.js';
import { planRanges, type BlockRange } from '../indexer/plan.js';
import { projectOutbox } from '../indexer/projectOutbox.js';
import { getLogsAdaptive } from '../indexer/getLogsAdaptive.js';
import type { ChainClient } from '../indexer/rpc.js';
import { upsertCampaigns } from '../indexer/store/campaigns.js';
import { upsertChains } from '../indexer/store/chains.js';
import { getCursor, setCursor } from '../indexer/store/cursor.js';
import { enqueueOutbox } from '../indexer/store/outbox.js';
import { missingTokens, upsertTokens, type TokenRow } from '../indexer/store/tokens.js';
import { toCampaignRows } from '../indexer/transform/campaigns.js';
import { withTransaction } from '../internal/pg.js';
import { createProgress } from './progress.js';
import type { Job, JobDeps, JobRange } from './types.js';

const NAME = 'campaigns';

/**
 * NewCampaign logs of each chain's DistributionCreator → campaigns and reward tokens in
 * PostgreSQL (rows, outbox entries and cursor in one transaction per range), then the outbox is
 * projected to Elasticsearch. Steps: plan → fetch → decode/transform → persist → publish.
 * Tables: campaigns, tokens, search_outbox, cursors. Index: <prefix>-campaigns_write.
 */
export const syncCampaigns: Job = {
  name: NAME,
  defaultCron: '*/5 * * * * *',
  description: 'NewCampaign events into PostgreSQL, then campaign documents to Elasticsearch through the outbox.',
  async run(deps) {
    await upsertChains(deps.pg, deps.config.chains);
    const ranges: JobRange[] = [];
    let campaigns = 0;
    for (const chainClient of deps.rpc.values()) {
      const { chain, client } = chainClient;
      const head = Number(await client.getBlockNumber());
      const cursor = await getCursor(deps.pg, NAME, chain.id);
      const planned = planRanges({ cursor, startBlock: chain.startBlock, head, confirmations: chain.confirmations, maxRange: deps.config.indexer.maxLogRange, maxRanges: 1000 });
      const progress = createProgress({ logger: deps.logger, total: planned.reduce((n, r) => n + r.to - r.from + 1, 0), unit: 'blocks' });
      for (const range of planned) {
        if (deps.signal.aborted) break;
        const events = await fetchNewCampaigns(chainClient, range);
        const timestamps = await fetchBlockTimestamps(chainClient, events);
        const rows = toCampaignRows(events, timestamps);
        const tokens = await fetchTokenMetadata(deps, chainClient, rows.map((r) => r.rewardToken));
        await withTransaction(deps.pg, async (tx) => {
          await upsertTokens(tx, tokens);
          const ids = await upsertCampaigns(tx, rows);
          await enqueueOutbox(tx, 'campaign', ids);
          await setCursor(tx, NAME, chain.id, range.to);
        });
        campaigns += rows.length;
        ranges.push({ chainId: chain.id, ...range });
        deps.logger[rows.length ? 'info' : 'debug']({ msg: 'batch persisted', chain_id: chain.id, from_block: range.from, to_block: range.to, campaigns: rows.length });
        progress.advance(range.to - range.from + 1, { chain_id: chain.id, to_block: range.to });
      }
    }
    const { published, deleted } = await projectOutbox({ ...deps });
    return { ranges, counts: { campaigns, published, deleted } };
  },
};

async function fetchNewCampaigns({ chain, client }: ChainClient, range: BlockRange): Promise<NewCampaignEvent[]> {
  const logs = await getLogsAdaptive({ client, address: chain.distributionCreator, event: newCampaignEvent, range });
  return logs.map((log) => decodeNewCampaign(chain.id, log as never));
}

async function fetchBlockTimestamps({ client }: ChainClient, events: NewCampaignEvent[]): Promise<Map<number, number>> {
  const numbers = [...new Set(events.map((e) => e.blockNumber))];
  const blocks = await Promise.all(numbers.map((n) => client.getBlock({ blockNumber: BigInt(n) })));
  return new Map(blocks.map((b) => [Number(b.number), Number(b.timestamp)]));
}

/** ERC20 metadata of reward tokens not stored yet, read in one deployless multicall. */
async function fetchTokenMetadata(deps: JobDeps, { chain, client }: ChainClient, addresses: string[]): Promise<TokenRow[]> {
  const missing = await missingTokens(deps.pg, chain.id, addresses);
  if (!missing.length) return [];
  const calls = missing.flatMap((address) =>
    (['name', 'symbol', 'decimals'] as const).map((functionName) => ({ address: address as `0x${string}`, abi: erc20MetadataAbi, functionName })),
  );
  const results = await client.multicall({ contracts: calls, allowFailure: true, deployless: true });
  return missing.map((address, i) => {
    const [name, symbol, decimals] = results.slice(i * 3, i * 3 + 3).map((r) => (r.status === 'success' ? r.result : undefined));
    if (decimals === undefined) deps.logger.warn({ msg: 'token metadata unreadable; defaults used', chain_id: chain.id, token: address });
    return { chainId: chain.id, address, name: (name as string | undefined) ?? null, symbol: (symbol as string | undefined) ?? '', decimals: Number(decimals ?? 18) };
  });
}
