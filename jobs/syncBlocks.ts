import { planRanges } from '../indexer/fetch/planRanges.js';
import type { ChainClient } from '../internal/rpc.js';
import { getBlockHash, upsertBlocks, type BlockRow } from '../indexer/store/blocks.js';
import { lockChainForWrite, ReorgDetectedError } from '../indexer/store/chainGuard.js';
import { upsertChains } from '../domain/tables/chains.js';
import { getCursor, setCursor } from '../indexer/store/cursor.js';
import { rollbackChain } from '../indexer/store/rollback.js';
import type { PgPool } from '../internal/pg.js';
import { withTransaction } from '../internal/pg.js';
import { createProgress } from '../internal/progress.js';
import type { Job, JobDeps, JobRange } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

const NAME = 'blocks';
/** Deepest reorganization we resolve automatically; anything deeper stops the job loudly. */
const MAX_REORG_DEPTH = 10_000;
/** Headers compared per step while walking back to the common ancestor. */
const ANCESTOR_STEP = 32;

export { ReorgDetectedError };

/**
 * The canonical header chain (number, hash, parent hash, timestamp) of every configured chain up to
 * head − confirmations, contiguous from the start block, each batch committed with the cursor.
 * Each run first checks that the stored tip is still on the node's chain; when it is not (or a new
 * batch does not extend it), it walks back to the common ancestor and rolls the chain back: headers
 * and every chain-derived row above the ancestor are deleted and all job cursors move back, so the
 * other jobs re-index the new branch. Tables: chains, blocks, cursors (+ rollback of derived tables).
 */
export const syncBlocks: Job = {
  ...jobInfo(NAME),
  async run(deps) {
    await upsertChains(deps.pg, deps.config.chains);
    const ranges: JobRange[] = [];
    const counts = { blocks: 0, reorgs: 0, rolledBackBlocks: 0 };
    for (const chainClient of deps.rpc.values()) {
      const { chain, client } = chainClient;
      for (let attempt = 0; attempt < 3 && !deps.signal.aborted; attempt++) {
        const head = Number(await client.getBlockNumber());
        let cursor = await getCursor(deps.pg, NAME, chain.id);
        if (cursor !== null) {
          const ancestor = await findCommonAncestor(deps.pg, chainClient, Math.min(cursor, head));
          if (ancestor < cursor) {
            await rollback(deps, chain.id, ancestor, cursor);
            counts.reorgs += 1;
            counts.rolledBackBlocks += cursor - ancestor;
            cursor = ancestor < chain.startBlock ? null : ancestor;
          }
        }
        const planned = planRanges({
          cursor,
          startBlock: chain.startBlock,
          head,
          confirmations: chain.confirmations,
          maxRange: deps.config.indexer.maxBlockBatch,
          maxRanges: 20,
        });
        const progress = createProgress({
          logger: deps.logger,
          total: planned.reduce((n, r) => n + r.to - r.from + 1, 0),
          unit: 'blocks',
        });
        try {
          for (const range of planned) {
            if (deps.signal.aborted) break;
            const rows = await fetchHeaders(chainClient, range.from, range.to);
            await withTransaction(deps.pg, async (tx) => {
              await lockChainForWrite(tx, chain.id);
              const previous = range.from > chain.startBlock ? await getBlockHash(tx, chain.id, range.from - 1) : null;
              assertContiguous(chain.id, previous, rows);
              counts.blocks += await upsertBlocks(tx, rows);
              await setCursor(tx, NAME, chain.id, range.to);
            });
            ranges.push({ chainId: chain.id, ...range });
            progress.advance(rows.length, { chain_id: chain.id, to_block: range.to, head });
          }
          break;
        } catch (error) {
          if (!(error instanceof ReorgDetectedError)) throw error;
          deps.logger.warn({
            msg: 'new headers do not extend the stored chain; resolving',
            chain_id: chain.id,
            reason: error.message,
          });
        }
      }
    }
    return { ranges, counts };
  },
};

async function fetchHeaders({ chain, client }: ChainClient, from: number, to: number): Promise<BlockRow[]> {
  const numbers = Array.from({ length: to - from + 1 }, (_, i) => BigInt(from + i));
  const headers = await Promise.all(numbers.map((blockNumber) => client.getBlock({ blockNumber })));
  return headers.map((b) => ({
    chainId: chain.id,
    number: Number(b.number),
    hash: b.hash!,
    parentHash: b.parentHash,
    timestamp: Number(b.timestamp),
  }));
}

/**
 * Highest stored block at or below `from` whose hash the node still reports (the common ancestor):
 * `from` itself in the usual case (one header read), otherwise walking back ANCESTOR_STEP headers
 * at a time; startBlock − 1 when none is left.
 */
async function findCommonAncestor(pg: PgPool, chainClient: ChainClient, from: number): Promise<number> {
  const { chain, client } = chainClient;
  if (from >= chain.startBlock) {
    const [stored, remote] = await Promise.all([
      getBlockHash(pg, chain.id, from),
      client.getBlock({ blockNumber: BigInt(from) }),
    ]);
    if (stored !== null && stored === remote.hash) return from;
  }
  for (let top = from; top >= chain.startBlock; top -= ANCESTOR_STEP) {
    if (from - top > MAX_REORG_DEPTH)
      throw new Error(`chain ${chain.id}: reorganization deeper than ${MAX_REORG_DEPTH} blocks below ${from}`);
    const bottom = Math.max(chain.startBlock, top - ANCESTOR_STEP + 1);
    const { rows } = await pg.query<{ number: string; hash: string }>(
      'SELECT number, hash FROM blocks WHERE chain_id = $1 AND number BETWEEN $2 AND $3',
      [chain.id, bottom, top],
    );
    const stored = new Map(rows.map((r) => [Number(r.number), r.hash]));
    const remote = await Promise.all(
      Array.from({ length: top - bottom + 1 }, (_, i) => client.getBlock({ blockNumber: BigInt(top - i) })),
    );
    for (const block of remote) if (stored.get(Number(block.number)) === block.hash) return Number(block.number);
  }
  return chain.startBlock - 1;
}

async function rollback(deps: JobDeps, chainId: number, ancestor: number, cursor: number): Promise<void> {
  const result = await withTransaction(deps.pg, async (tx) => {
    await lockChainForWrite(tx, chainId);
    return rollbackChain(tx, chainId, ancestor);
  });
  deps.logger.warn({
    msg: 'reorg rolled back',
    chain_id: chainId,
    ancestor,
    depth: cursor - ancestor,
    deleted: result.deleted,
  });
}

/** Pure check that `rows` extend the stored block `previousHash` and each other. */
export function assertContiguous(chainId: number, previousHash: string | null, rows: BlockRow[]): void {
  let expected = previousHash;
  for (const row of rows) {
    if (expected !== null && row.parentHash !== expected) {
      throw new ReorgDetectedError(
        `chain ${chainId}: block ${row.number} has parent ${row.parentHash}, stored ${expected}`,
      );
    }
    expected = row.hash;
  }
}
