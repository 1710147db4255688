import { RewardTreeFormatError } from './parseRewardTree.js';
import { type PositionedEntry, type RewardTreeHeader, readTreeDocument } from './readTreeDocument.js';

export type { PositionedEntry, RewardTreeHeader } from './readTreeDocument.js';

/** A Merkl document where only our own format is read (it names no root: its leaves must be summed and verified first). */
const merklRefused = () =>
  new RewardTreeFormatError(
    "invalid reward tree: Merkl's array of expanded leaves, read only by the roots job (its leaves are summed and verified against the on-chain root)",
    { details: { field: '/' } },
  );

/**
 * Reads a tree document of our own format (parseRewardTree's) from its bytes as they arrive, in
 * bounded memory (readTreeDocument): entries validated one by one and yielded in batches with their
 * positions, the header returned at the end. For tools and tests reading one tree whole; the roots
 * job reads both formats (readTreeDocument).
 * @throws RewardTreeFormatError as readTreeDocument, and for a Merkl document.
 */
export async function* readRewardTree(
  bytes: AsyncIterable<Uint8Array>,
): AsyncGenerator<PositionedEntry[], RewardTreeHeader, void> {
  const reader = readTreeDocument(bytes);
  try {
    for (let next = await reader.next(); ; next = await reader.next()) {
      if (next.value.format === 'merkl') throw merklRefused();
      if (next.done) return next.value.header;
      yield next.value.entries;
    }
  } finally {
    await reader.return(undefined as never);
  }
}
