import { Ajv } from 'ajv';
import type { Address, Hex } from 'viem';
import { createJsonSplitter, JsonSplitError } from './splitJsonDocument.js';
import { REWARD_TREE_ENTRY_SCHEMA, RewardTreeFormatError, type RewardTreeEntry } from './parseRewardTree.js';

/** What a tree document says about itself besides its entries. */
export type RewardTreeHeader = { root: Hex; chainId: number };

/** One entry of a tree document with its position in `rewards` (0-based). */
export type PositionedEntry = { index: number; entry: RewardTreeEntry };

const validateEntry = new Ajv({ allErrors: false }).compile<RewardTreeEntry>(REWARD_TREE_ENTRY_SCHEMA);
const HEADER = { root: /^0x[0-9a-fA-F]{64}$/ };
/** Most bytes read before a batch is handed out (~200 entries, a few ms of work). */
const PIECE_BYTES = 64 * 1024;

/** `/rewards/<index><path>` of the first problem of an entry. */
function entryError(index: number): RewardTreeFormatError {
  const e = validateEntry.errors?.[0];
  const field = `/rewards/${index}${e?.instancePath ?? ''}${e?.keyword === 'required' ? `/${String(e.params['missingProperty'])}` : ''}`;
  return new RewardTreeFormatError(`invalid reward tree: ${field} ${e?.message ?? 'is invalid'}`, {
    details: { field, position: index },
  });
}

/**
 * Reads a tree document (parseRewardTree's format) from its bytes as they arrive, in bounded
 * memory (createJsonSplitter: one entry's text at a time): entries are validated one by one and
 * yielded in batches (one per 64 KiB of input at most) with their positions, addresses lower-cased; the
 * header (root, chainId, wherever it stands in the document) is returned at the end. Unknown fields
 * are parsed (so a document that is not JSON is refused) and dropped.
 * @throws RewardTreeFormatError naming the position and field of the first bad entry, or the
 *   header field, or "not JSON (by byte n)" for a truncated or corrupt document.
 */
export async function* readRewardTree(
  bytes: AsyncIterable<Uint8Array>,
): AsyncGenerator<PositionedEntry[], RewardTreeHeader, void> {
  let batch: PositionedEntry[] = [];
  const header: Partial<RewardTreeHeader> = {};
  let sawRewards = false;
  const splitter = createJsonSplitter('rewards', {
    member(key, value) {
      if (key === 'root') header.root = value as Hex;
      else if (key === 'chainId') header.chainId = value as number;
      else if (key === 'rewards') throw notArray();
    },
    arrayStart() {
      sawRewards = true;
    },
    element(index, value) {
      if (!validateEntry(value)) throw entryError(index);
      batch.push({ index, entry: normalize(value) });
    },
  });
  const text = new TextDecoder('utf-8', { fatal: true });
  let offset = 0;
  try {
    for await (const chunk of bytes) {
      // Pieces of at most PIECE_BYTES, each its own batch: a source may deliver 1 MiB at a time, and
      // its ~3,000 entries in one go held the caller's event loop for ~40 ms.
      for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
        const piece = chunk.subarray(at, at + PIECE_BYTES);
        offset += piece.length;
        splitter.write(text.decode(piece, { stream: true }));
        if (batch.length) {
          yield batch;
          batch = [];
        }
      }
    }
    splitter.write(text.decode());
    splitter.end();
  } catch (cause) {
    if (cause instanceof RewardTreeFormatError) throw cause;
    if (cause instanceof JsonSplitError && cause.field)
      throw new RewardTreeFormatError(`invalid reward tree: ${cause.message}`, { details: { field: cause.field } });
    throw new RewardTreeFormatError(`invalid reward tree: not JSON (by byte ${offset})`, {
      cause,
      details: { field: '/', offset },
    });
  }
  if (batch.length) yield batch;
  if (!sawRewards) throw missing('rewards');
  if (typeof header.root !== 'string' || !HEADER.root.test(header.root))
    throw header.root === undefined ? missing('root') : badHeader('/root', 'must match pattern "^0x[0-9a-fA-F]{64}$"');
  if (!Number.isInteger(header.chainId) || (header.chainId as number) < 1)
    throw header.chainId === undefined ? missing('chainId') : badHeader('/chainId', 'must be an integer ≥ 1');
  return { root: header.root.toLowerCase() as Hex, chainId: header.chainId as number };
}

const badHeader = (field: string, message: string) =>
  new RewardTreeFormatError(`invalid reward tree: ${field} ${message}`, { details: { field } });
const missing = (property: string) =>
  new RewardTreeFormatError(`invalid reward tree: /${property} must have required property '${property}'`, {
    details: { field: `/${property}` },
  });
const notArray = () => badHeader('/rewards', 'must be array');

function normalize(r: RewardTreeEntry): RewardTreeEntry {
  return {
    recipient: r.recipient.toLowerCase() as Address,
    token: r.token.toLowerCase() as Address,
    amount: r.amount,
    breakdowns: r.breakdowns.map((b) => ({ campaignId: b.campaignId, reason: b.reason, amount: b.amount })),
  };
}
