import { expect } from 'chai';
import { hexToNumber, type Hex, type PublicClient } from 'viem';
import { campaignOverrideEvent } from '../../../domain/abis/distributionCreator.js';
import { fetchNextLogs } from '../../../indexer/fetch/getLogsAdaptive.js';
import { createLogSpan } from '../../../indexer/fetch/logSpan.js';

/**
 * A JSON-RPC node (the external service, not our storage) that refuses eth_getLogs over more than
 * `maxBlocks` blocks with a provider-style message, and records every range asked.
 */
function nodeRefusingAbove(maxBlocks: number) {
  const asked: [number, number][] = [];
  const client = {
    request: async ({ params }: { params: [{ fromBlock: Hex; toBlock: Hex }] }) => {
      const from = hexToNumber(params[0].fromBlock);
      const to = hexToNumber(params[0].toBlock);
      asked.push([from, to]);
      if (to - from + 1 > maxBlocks) throw new Error('query returned more than 10000 results');
      return [];
    },
  } as unknown as PublicClient;
  return { client, asked };
}

describe('indexer/fetchNextLogs', () => {
  it('grows the span while answered, shrinks it once below a refused span, and walks on with it', async () => {
    const { client, asked } = nodeRefusingAbove(300);
    const span = createLogSpan({ max: 5000, initial: 100 });
    const ranges = [];
    for (let from = 0; from <= 1500; ) {
      const { range } = await fetchNextLogs({
        client,
        address: '0x4444444444444444444444444444444444444444',
        events: [campaignOverrideEvent],
        from,
        limit: 1500,
        span,
        retries: 0,
      });
      ranges.push([range.from, range.to]);
      from = range.to + 1;
    }
    expect(ranges).to.deep.equal([
      [0, 99],
      [100, 299],
      [300, 499],
      [500, 699],
      [700, 899],
      [900, 1099],
      [1100, 1299],
      [1300, 1499],
      [1500, 1500],
    ]);
    // One refused request in the whole walk (400 blocks at 300), not one per halving level.
    expect(asked.filter(([f, t]) => t - f + 1 > 300)).to.deep.equal([[300, 699]]);
  });

  it('propagates the refusal of a single block', async () => {
    const { client } = nodeRefusingAbove(0);
    const span = createLogSpan({ max: 8, initial: 8 });
    let error: unknown;
    await fetchNextLogs({
      client,
      address: '0x4444444444444444444444444444444444444444',
      events: [campaignOverrideEvent],
      from: 10,
      limit: 100,
      span,
      retries: 0,
    }).catch((e) => (error = e));
    expect(String(error)).to.match(/more than 10000 results/);
    expect(span.current()).to.equal(1);
  });
});
