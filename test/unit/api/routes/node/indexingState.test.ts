import { expect } from 'chai';
import type { CursorRow } from '../../../../../api/routes/node/indexingRepo.js';
import { nodeStatus, staleCursors } from '../../../../../api/routes/node/indexingState.js';

const cursor = (job: string, chainId: number, block: number, timestamp: number | null): CursorRow => ({
  job,
  chain_id: chainId,
  block_number: String(block),
  block_timestamp: timestamp === null ? null : String(timestamp),
  updated_at: new Date(0),
});

describe('api/routes/node/indexingState', () => {
  describe('nodeStatus', () => {
    const chains = [
      { id: 1, startBlock: 100 },
      { id: 2, startBlock: 0 },
    ];

    it('measures each cursor against its chain head: blocks and chain seconds behind, the range from the start block', () => {
      const status = nodeStatus(
        chains,
        [cursor('campaigns', 1, 150, 1_000), cursor('blocks', 1, 160, null)],
        new Map([
          [1, { number: 170, timestamp: 1_240 }],
          [2, { number: 9, timestamp: 5 }],
        ]),
      );
      expect(status[1]!.nodeError).to.equal(null);
      expect(status[1]!.protocols).to.deep.equal([
        {
          protocolId: 'campaigns',
          protocol: null,
          chainId: 1,
          oldestBlock: 150,
          currentBlock: 170,
          lastFetchedBlock: 150,
          blockDifference: 20,
          totalBlockRange: 70,
          source: 'cursors',
          nodeCount: 1,
          timeBehind: 240,
        },
        {
          protocolId: 'blocks',
          protocol: null,
          chainId: 1,
          oldestBlock: 160,
          currentBlock: 170,
          lastFetchedBlock: 160,
          blockDifference: 10,
          totalBlockRange: 70,
          source: 'cursors',
          nodeCount: 1,
          timeBehind: null,
        },
      ]);
      expect(status[2]).to.deep.equal({ chainId: 2, nodeError: null, protocols: [] });
    });

    it("leaves a chain's head-derived figures null when its node did not answer, and says why", () => {
      const status = nodeStatus(chains, [cursor('campaigns', 2, 5, 3)], new Map([[2, { error: 'down' }]]));
      expect(status[2]!.nodeError).to.equal('down');
      expect(status[2]!.protocols[0]).to.include({
        lastFetchedBlock: 5,
        currentBlock: null,
        blockDifference: null,
        totalBlockRange: null,
        timeBehind: null,
      });
      expect(status[1]!.nodeError, 'a chain whose head was not read').to.equal('not read');
    });
  });

  describe('staleCursors', () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const newest = new Map([[1, { number: 500, timestamp: 20_000 }]]);

    it('finds the indexing cursors trailing the newest header by more than the limit, stalest first', () => {
      const { checked, stale } = staleCursors(
        [1],
        [
          cursor('campaigns', 1, 100, 20_000 - 7_201),
          cursor('claims', 1, 90, 20_000 - 9_000),
          cursor('roots', 1, 499, 19_990),
        ],
        newest,
        new Map([[1, now]]),
        now,
        7_200,
      );
      expect(checked).to.equal(3);
      expect(stale).to.deep.equal([
        { prefix: 'claims', name: 'chain-1', ageMinutes: 150 },
        { prefix: 'campaigns', name: 'chain-1', ageMinutes: 120 },
      ]);
    });

    it("judges the blocks cursor by its job's last success, skips unknown ages and other chains' cursors", () => {
      const old = new Date(now.getTime() - 3 * 3_600_000);
      const { checked, stale } = staleCursors(
        [1],
        [cursor('blocks', 1, 500, 20_000), cursor('campaigns', 1, 10, null), cursor('campaigns', 7, 1, 0)],
        newest,
        new Map([[1, old]]),
        now,
        7_200,
      );
      expect(checked).to.equal(2);
      expect(stale).to.deep.equal([{ prefix: 'blocks', name: 'chain-1', ageMinutes: 180 }]);
    });
  });
});
