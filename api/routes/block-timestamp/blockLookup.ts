import type { PublicClient } from 'viem';
import type { PgPool } from '../../../internal/pg.js';
import { BaseError } from '../../../internal/errors.js';

export type BlockPoint = { blockNumber: number; timestamp: number };
export type BlockBounds = { lower: BlockPoint | null; upper: BlockPoint | null; exactMatch: boolean };

/** Runs `read` with a client of the chain, within the request's chain-read bounds (api/chain/readChain.ts). */
export type ChainReader = <T>(read: (client: PublicClient) => Promise<T>) => Promise<T>;

/**
 * Where a lookup reads: indexed headers, then the chain through `read`. A lookup that needs the chain
 * makes all its RPC calls (the head, every bisection step) inside one `read`: one turn of the chain's
 * gate and one deadline for the whole bisection (docs/api-behaviour.md#bounded-chain-reads).
 */
export type Source = { pg: PgPool; chainId: number; read: ChainReader };
type ChainSource = { pg: PgPool; chainId: number; client: PublicClient };

/** Timestamp of an indexed block, null when it is not stored. */
async function storedTimestamp(pg: PgPool, chainId: number, blockNumber: number): Promise<number | null> {
  const { rows } = await pg.query<{ timestamp: string }>(
    'SELECT timestamp FROM blocks WHERE chain_id = $1 AND number = $2',
    [chainId, blockNumber],
  );
  return rows[0] ? Number(rows[0].timestamp) : null;
}

/** Timestamp of a block: from indexed headers when stored, else from the RPC node. */
async function timestampOf({ pg, client, chainId }: ChainSource, blockNumber: number): Promise<number> {
  const stored = await storedTimestamp(pg, chainId, blockNumber);
  if (stored !== null) return stored;
  const block = await client.getBlock({ blockNumber: BigInt(blockNumber) });
  return Number(block.timestamp);
}

/** Largest n in [lo, hi] with ts(n) ≤ target, by bisection over RPC reads; null when ts(lo) > target. */
async function bisectLower(src: ChainSource, lo: number, hi: number, target: number): Promise<BlockPoint | null> {
  const loTs = await timestampOf(src, lo);
  if (loTs > target) return null;
  let best: BlockPoint = { blockNumber: lo, timestamp: loTs };
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const ts = await timestampOf(src, mid);
    if (ts <= target) (lo = mid), (best = { blockNumber: mid, timestamp: ts });
    else hi = mid - 1;
  }
  return best;
}

type IndexedRange = { minNumber: number; minTs: number; maxNumber: number; maxTs: number };

async function indexedRange(pg: PgPool, chainId: number): Promise<IndexedRange | null> {
  const { rows } = await pg.query<{ min_n: string | null; max_n: string | null; min_ts: string; max_ts: string }>(
    `SELECT lo.number AS min_n, lo.timestamp AS min_ts, hi.number AS max_n, hi.timestamp AS max_ts
     FROM (SELECT number, timestamp FROM blocks WHERE chain_id = $1 ORDER BY number ASC LIMIT 1) lo,
          (SELECT number, timestamp FROM blocks WHERE chain_id = $1 ORDER BY number DESC LIMIT 1) hi`,
    [chainId],
  );
  const r = rows[0];
  return r?.min_n && r.max_n
    ? { minNumber: Number(r.min_n), minTs: Number(r.min_ts), maxNumber: Number(r.max_n), maxTs: Number(r.max_ts) }
    : null;
}

/** The last indexed block with timestamp ≤ target (headers are contiguous, so this is exact in range). */
async function indexedLower(pg: PgPool, chainId: number, target: number): Promise<BlockPoint | null> {
  const { rows } = await pg.query<{ number: string; timestamp: string }>(
    'SELECT number, timestamp FROM blocks WHERE chain_id = $1 AND timestamp <= $2 ORDER BY timestamp DESC, number DESC LIMIT 1',
    [chainId, target],
  );
  return rows[0] ? { blockNumber: Number(rows[0].number), timestamp: Number(rows[0].timestamp) } : null;
}

/**
 * Block bounds of a timestamp on a chain: `lower` is the last block with timestamp ≤ target and
 * `upper` the first with timestamp ≥ target (the same block, and `exactMatch`, when a block has
 * exactly that timestamp). Answered from indexed headers when the target falls inside them,
 * otherwise by bisection over the RPC node. Before genesis: lower null; after the head: upper null.
 * Only a lookup the headers cannot answer takes a turn of the chain's gate (`src.read`), once.
 */
export async function findBlockBounds(src: Source, target: number): Promise<BlockBounds> {
  const range = await indexedRange(src.pg, src.chainId);
  if (range && range.minTs <= target && target < range.maxTs) {
    const lower = await indexedLower(src.pg, src.chainId, target);
    if (lower && lower.timestamp === target) return { lower, upper: lower, exactMatch: true };
    const upper = lower && (await storedTimestamp(src.pg, src.chainId, lower.blockNumber + 1));
    if (lower && upper !== null && upper !== undefined)
      return { lower, upper: { blockNumber: lower.blockNumber + 1, timestamp: upper }, exactMatch: false };
  }
  return src.read((client) => boundsOnChain({ pg: src.pg, chainId: src.chainId, client }, target, range));
}

/** findBlockBounds with the chain at hand: indexed headers where they answer, the node's blocks elsewhere. */
async function boundsOnChain(src: ChainSource, target: number, range: IndexedRange | null): Promise<BlockBounds> {
  let lower: BlockPoint | null;
  let head: number;
  if (range && range.minTs <= target && target < range.maxTs) {
    lower = await indexedLower(src.pg, src.chainId, target);
    head = range.maxNumber;
  } else {
    head = Number(await src.client.getBlockNumber());
    const [lo, hi] = !range ? [0, head] : target < range.minTs ? [0, range.minNumber] : [range.maxNumber, head];
    lower = await bisectLower(src, lo, hi, target);
    if (lower === null && lo > 0) lower = await bisectLower(src, 0, lo, target);
  }
  if (lower && lower.timestamp === target) return { lower, upper: lower, exactMatch: true };
  const upperNumber = lower ? lower.blockNumber + 1 : 0;
  const upper =
    upperNumber <= head ? { blockNumber: upperNumber, timestamp: await timestampOf(src, upperNumber) } : null;
  return { lower, upper, exactMatch: false };
}

/** The block whose timestamp is closest to target (the earlier one on a tie). */
export async function findClosestBlock(src: Source, target: number): Promise<number> {
  const { lower, upper } = await findBlockBounds(src, target);
  if (!lower) return upper!.blockNumber;
  if (!upper) return lower.blockNumber;
  return target - lower.timestamp <= upper.timestamp - target ? lower.blockNumber : upper.blockNumber;
}

/** A block past the chain head: it does not exist yet, so it has no timestamp (never the head's as a guess). */
export class BlockBeyondHeadError extends BaseError {
  override readonly userError = true;
  override name = 'BlockBeyondHeadError';
  constructor(
    readonly blockNumber: number,
    readonly head: number,
  ) {
    super(`block ${blockNumber} does not exist yet: the chain head is block ${head}`);
  }
}

/**
 * Timestamp of a block.
 * @throws BlockBeyondHeadError for a block past the head.
 */
export async function findBlockTimestamp(src: Source, blockNumber: number): Promise<number> {
  const stored = await storedTimestamp(src.pg, src.chainId, blockNumber);
  if (stored !== null) return stored;
  // Thrown outside the read: within it, any error is the node's (a 503).
  const read = await src.read(async (client): Promise<{ head: number } | { timestamp: number }> => {
    const head = Number(await client.getBlockNumber());
    if (blockNumber > head) return { head };
    const block = await client.getBlock({ blockNumber: BigInt(blockNumber) });
    return { timestamp: Number(block.timestamp) };
  });
  if ('head' in read) throw new BlockBeyondHeadError(blockNumber, read.head);
  return read.timestamp;
}
