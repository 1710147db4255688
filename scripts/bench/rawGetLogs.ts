/**
 * The benchmarks' upper bound: NewCampaign logs fetched with getLogs and decoded into campaign rows,
 * stored nowhere (scripts/bench/indexer.ts, scripts/bench/peer.ts).
 */
import type { Address, PublicClient } from 'viem';
import { CAMPAIGN_EVENTS } from '../../indexer/abis/distributionCreator.js';
import { decodeNewCampaign } from '../../indexer/decode.js';
import { getLogsAdaptive } from '../../indexer/getLogsAdaptive.js';
import { toCampaignRows } from '../../indexer/transform/campaigns.js';

export type RawGetLogsParams = { client: PublicClient; chainId: number; address: Address; head: number; rangeSize?: number };

/**
 * Fetches and decodes every campaign log from block 0 to `head`, `rangeSize` (default 2000) blocks per call.
 * @returns the number of campaign rows decoded and the wall time.
 */
export async function rawGetLogs({ client, chainId, address, head, rangeSize = 2000 }: RawGetLogsParams): Promise<{ decoded: number; seconds: number }> {
  const t0 = performance.now();
  let decoded = 0;
  for (let from = 0; from <= head; from += rangeSize) {
    const logs = await getLogsAdaptive({ client, address, events: CAMPAIGN_EVENTS, range: { from, to: Math.min(head, from + rangeSize - 1) } });
    const events = logs.filter((l) => l.eventName === 'NewCampaign').map((l) => decodeNewCampaign(chainId, l as never));
    decoded += toCampaignRows(events, new Map(events.map((e) => [e.blockNumber, 0]))).length;
  }
  return { decoded, seconds: (performance.now() - t0) / 1000 };
}
