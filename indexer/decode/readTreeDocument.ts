import { Ajv } from 'ajv';
import type { Address, Hex } from 'viem';
import { MERKL_EXPANDED_LEAF_SCHEMA, MERKL_ROW_MARKS, type MerklExpandedRow, toMerklRow } from './merklExpandedLeaf.js';
import { REWARD_TREE_ENTRY_SCHEMA, RewardTreeFormatError, type RewardTreeEntry } from './parseRewardTree.js';
import { createJsonSplitter, JsonSplitError } from './splitJsonDocument.js';

/** What a tree document says about itself besides its entries (our own format). */
export type RewardTreeHeader = { root: Hex; chainId: number };

/** One entry of a tree document with its position in `rewards` (0-based). */
export type PositionedEntry = { index: number; entry: RewardTreeEntry };

/** One row of a Merkl document with its position in the array (0-based). */
export type PositionedRow = { index: number; row: MerklExpandedRow };

/**
 * The two documents read, told apart by their text: `rewards` is our own object
 * `{ root, chainId, rewards: [entry] }` (parseRewardTree.ts), one entry per leaf; `merkl` is Merkl's
 * bare array of expanded leaves (merklExpandedLeaf.ts), one row per (campaign, recipient, reason),
 * summed into leaves by the reader's caller.
 */
export type TreeDocumentFormat = 'rewards' | 'merkl';

export type TreeDocumentBatch =
  | { format: 'rewards'; entries: PositionedEntry[] }
  | { format: 'merkl'; rows: PositionedRow[] };

/** The end of a document: our format's header, or the number of Merkl rows read (its text says no root). */
export type TreeDocumentEnd = { format: 'rewards'; header: RewardTreeHeader } | { format: 'merkl'; rows: number };

/** The refusal of a JSON document that is neither format, saying what was expected. */
export const UNKNOWN_FORMAT =
  "invalid reward tree: unknown document format (expected an object { root, chainId, rewards } or Merkl's array of expanded leaves { campaignId, recipient, reason, rewardToken, amount, lastProcessedTimestamp })";

const validateEntry = new Ajv({ allErrors: false }).compile<RewardTreeEntry>(REWARD_TREE_ENTRY_SCHEMA);
const validateRow = new Ajv({ allErrors: false }).compile<Parameters<typeof toMerklRow>[0]>(MERKL_EXPANDED_LEAF_SCHEMA);
const HEADER = { root: /^0x[0-9a-fA-F]{64}$/ };
/** Most bytes read before a batch is handed out (~200 entries, a few ms of work). */
const PIECE_BYTES = 64 * 1024;

/** `<prefix>/<index><path>` of the first problem `validate` found in an element. */
function elementError(validate: typeof validateEntry | typeof validateRow, prefix: string, index: number) {
  const e = validate.errors?.[0];
  const field = `${prefix}/${index}${e?.instancePath ?? ''}${e?.keyword === 'required' ? `/${String(e.params['missingProperty'])}` : ''}`;
  return new RewardTreeFormatError(`invalid reward tree: ${field} ${e?.message ?? 'is invalid'}`, {
    details: { field, position: index },
  });
}

const unknownFormat = (seen: string) => new RewardTreeFormatError(UNKNOWN_FORMAT, { details: { field: '/', seen } });

/** Whether the first element of an array document is a Merkl row (an object with its marks). */
const looksLikeMerklRow = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  MERKL_ROW_MARKS.every((mark) => Object.hasOwn(value, mark));

/** What a JSON value is, for the unknown-format refusal's details. */
const kindOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/**
 * Reads a tree document of either format (TreeDocumentFormat) from its bytes as they arrive, in
 * bounded memory (createJsonSplitter: one element's text at a time), the format told by the text:
 * an object is our own, an array whose first element has Merkl's `campaignId` and `rewardToken` is
 * Merkl's. Elements are validated one by one and yielded in batches (one per 64 KiB of input at
 * most) with their positions, addresses lower-cased; our header (root, chainId, wherever it stands in
 * the document) is returned at the end. Unknown fields are parsed (so a document that is not JSON is
 * refused) and dropped.
 * @throws RewardTreeFormatError naming the position and field of the first bad element, or the
 *   header field; UNKNOWN_FORMAT for JSON that is neither format (another object, another array, a
 *   lone value); "not JSON (by byte n)" for a truncated or corrupt document.
 */
export async function* readTreeDocument(
  bytes: AsyncIterable<Uint8Array>,
): AsyncGenerator<TreeDocumentBatch, TreeDocumentEnd, void> {
  let entries: PositionedEntry[] = [];
  let rows: PositionedRow[] = [];
  let rowCount = 0;
  const header: Partial<RewardTreeHeader> = {};
  // The document is an array (Merkl's, if its first element says so), else our object.
  let isArray = false;
  let sawRewards = false;
  const splitter = createJsonSplitter(
    'rewards',
    {
      member(key, value) {
        if (key === 'root') header.root = value as Hex;
        else if (key === 'chainId') header.chainId = value as number;
        else if (key === 'rewards') throw notArray();
      },
      arrayStart(key) {
        // '' is a document that is an array: its first element says whether it is Merkl's.
        if (key === '') isArray = true;
        else sawRewards = true;
      },
      element(index, value) {
        if (!isArray) {
          if (!validateEntry(value)) throw elementError(validateEntry, '/rewards', index);
          entries.push({ index, entry: normalize(value) });
          return;
        }
        if (index === 0 && !looksLikeMerklRow(value)) throw unknownFormat(`an array of ${kindOf(value)}`);
        if (!validateRow(value)) throw elementError(validateRow, '', index);
        rows.push({ index, row: toMerklRow(value) });
        rowCount += 1;
      },
    },
    {
      topLevelArray: true,
      otherValue(value) {
        throw unknownFormat(`a JSON ${kindOf(value)}`);
      },
    },
  );
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
        if (entries.length) yield { format: 'rewards', entries };
        if (rows.length) yield { format: 'merkl', rows };
        entries = [];
        rows = [];
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
  if (entries.length) yield { format: 'rewards', entries };
  if (rows.length) yield { format: 'merkl', rows };
  // An empty array is an empty Merkl document (no leaf: the zero root).
  if (isArray) return { format: 'merkl', rows: rowCount };
  return { format: 'rewards', header: checkedHeader(header, sawRewards) };
}

/** Our format's header, once the whole object is read; an object with none of our members is another format. */
function checkedHeader(header: Partial<RewardTreeHeader>, sawRewards: boolean): RewardTreeHeader {
  if (!sawRewards && header.root === undefined && header.chainId === undefined) throw unknownFormat('another object');
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
