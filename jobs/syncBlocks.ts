import { planRanges } from '../indexer/plan.js';
import { getBlockHash, upsertBlocks, type BlockRow } from '../indexer/store/blocks.js';
import { upsertChains } from '../indexer/store/chains.js';
import { getCursor, setCursor } from '../indexer/store/cursor.js';
import { withTransaction } from '../internal/pg.js';
import { createProgress } from './progress.js';
import type { Job, JobDeps, JobRange } from './types.js';

const NAME = 'blocks';

export class ReorgDetectedError extends Error {
  override name = 'ReorgDetectedError';
}

/**
 * Block headers (number, hash, parent hash, timestamp) of every configured chain up to
 * head − confirmations, contiguous from the chain's start block, each batch committed with the
 * cursor. A batch that does not extend the stored chain stops the job loudly.
 * Tables: chains, blocks, cursors.
 */
export const syncBlocks: Job = {
  name: NAME,
  defaultCron: '*/5 * * * * *',
  description: 'Block headers of every chain into PostgreSQL (cursor per chain, confirmation depth).',
  async run(deps) {
    await upsertChains(deps.pg, deps.config.chains);
    const ranges: JobRange[] = [];
    let blocks = 0;
    for (const { chain, client } of deps.rpc.values()) {
      const head = Number(await client.getBlockNumber());
      const cursor = await getCursor(deps.pg, NAME, chain.id);
      const planned = planRanges({ cursor, startBlock: chain.startBlock, head, confirmations: chain.confirmations, maxRange: deps.config.indexer.maxBlockBatch, maxRanges: 20 });
      const progress = createProgress({ logger: deps.logger, total: planned.reduce((n, r) => n + r.to - r.from + 1, 0), unit: 'blocks' });
      for (const range of planned) {
        if (deps.signal.aborted) break;
        const rows = await fetchHeaders(deps, chain.id, range.from, range.to);
        await withTransaction(deps.pg, async (tx) => {
          const previous = range.from > chain.startBlock ? await getBlockHash(tx, chain.id, range.from - 1) : null;
          assertContiguous(chain.id, previous, rows);
          blocks += await upsertBlocks(tx, rows);
          await setCursor(tx, NAME, chain.id, range.to);
        });
        ranges.push({ chainId: chain.id, ...range });
        progress.advance(rows.length, { chain_id: chain.id, to_block: range.to, head });
      }
    }
    return { ranges, counts: { blocks } };
  },
};

async function fetchHeaders(deps: JobDeps, chainId: number, from: number, to: number): Promise<BlockRow[]> {
  const { client } = deps.rpc.get(chainId)!;
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));
  const headers = await Promise.all(numbers.map((blockNumber) => client.getBlock({ blockNumber })));
  return headers.map((b) => ({ chainId, number: Number(b.number), hash: b.hash!, parentHash: b.parentHash, timestamp: Number(b.timestamp) }));
}

/** Pure check that `rows` extend the stored block `previousHash` and each other. */
export function assertContiguous(chainId: number, previousHash: string | null, rows: BlockRow[]): void {
  let expected = previousHash;
  for (const row of rows) {
    if (expected !== null && row.parentHash !== expected) {
      throw new ReorgDetectedError(`chain ${chainId}: block ${row.number} has parent ${row.parentHash}, stored ${expected}`);
    }
    expected = row.hash;
  }
}
