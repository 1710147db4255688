/**
 * The benchmarks' upper bound: NewCampaign logs fetched with getLogs and decoded into campaign rows,
 * stored nowhere (scripts/bench/indexer.ts, scripts/bench/peer.ts). Same fetching (learned span) and
 * decoding as the campaigns job, one range after the other.
 */
import type { Address, PublicClient } from 'viem';
import { CAMPAIGN_EVENTS } from '../../domain/abis/distributionCreator.js';
import { decodeCampaignLogs } from '../../indexer/decode/campaignLogs.js';
import { fetchNextLogs } from '../../indexer/fetch/getLogsAdaptive.js';
import { createLogSpan } from '../../indexer/fetch/logSpan.js';
import { toCampaignRows } from '../../indexer/transform/campaigns.js';

export type RawGetLogsParams = {
  client: PublicClient;
  chainId: number;
  address: Address;
  head: number;
  rangeSize?: number;
};

/**
 * Fetches and decodes every campaign log from block 0 to `head`, at most `rangeSize` (default 2000) blocks per call.
 * @returns the number of campaign rows decoded and the wall time.
 */
export async function rawGetLogs({
  client,
  chainId,
  address,
  head,
  rangeSize = 2000,
}: RawGetLogsParams): Promise<{ decoded: number; seconds: number }> {
  const t0 = performance.now();
  const span = createLogSpan({ max: rangeSize });
  let decoded = 0;
  for (let from = 0; from <= head; ) {
    const { range, logs } = await fetchNextLogs({ client, address, events: CAMPAIGN_EVENTS, from, limit: head, span });
    const events = decodeCampaignLogs(chainId, logs).newCampaigns;
    decoded += toCampaignRows(events, new Map(events.map((e) => [e.blockNumber, 0]))).length;
    from = range.to + 1;
  }
  return { decoded, seconds: (performance.now() - t0) / 1000 };
}
