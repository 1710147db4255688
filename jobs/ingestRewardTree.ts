import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { checkHeader, type TreeDocument } from '../indexer/fetch/createRewardTreeSource.js';
import { readTreeDocument, type TreeDocumentFormat } from '../indexer/decode/readTreeDocument.js';
import { pruneProofMaterial, storeProofMaterial } from '../indexer/store/rewardProofMaterial.js';
import { markTree, stagedDuplicates } from '../indexer/store/rewardTrees.js';
import { openExpandedRowStage, sumExpandedRows, type ExpandedRowStage } from '../indexer/store/stageExpandedRows.js';
import { openTreeStage, type TreeStage } from '../indexer/store/stageRewardTree.js';
import { openTreeStore } from '../indexer/store/treeStore.js';
import { createRewardTreeChecker, type VerifyRewardTreeResult } from '../indexer/transform/checkRewardTree.js';
import { layoutInWorker } from '../indexer/transform/layoutInWorker.js';
import type { Keccak } from '../internal/keccak.js';
import { createProgress } from '../internal/progress.js';
import type { JobDeps } from '../domain/jobs/types.js';

export type IngestRewardTreeParams = {
  chainId: number;
  root: string;
  document: TreeDocument;
  keccak: Keccak;
  /** Fields every progress line carries. */
  log: Record<string, unknown>;
};

/**
 * Verified and stored (`entries`: the document's, or the leaves Merkl's `rows` summed into), or
 * refused with the verdict and nothing stored; `format` says which document it was.
 */
export type IngestRewardTreeResult = {
  verdict: VerifyRewardTreeResult;
  entries: number;
  format: TreeDocumentFormat;
  rows?: number;
};

/**
 * Reads, verifies and stores one published tree in bounded memory, whatever its size: the document
 * is parsed as it arrives (readTreeDocument, either format), each entry checked and its leaf hashed
 * (32 bytes kept a leaf) and staged by COPY; a Merkl document's rows are staged as read, then summed
 * per (recipient, token) into entries in PostgreSQL (sumExpandedRows), checked, hashed and staged
 * alike. At the end the hashes are sorted and laid out in a worker thread
 * (layoutInWorker) and compared with the on-chain root. Verified, the staged entries are stored by
 * change from two connections (indexer/store/treeStore.ts) and the tree's transaction commits its
 * versions with the proof material and the verified mark; refused, nothing is stored. A crash at any
 * point leaves no part of the tree visible (the previous root goes on serving): what a store left
 * is undone when it ends or by the next store of the chain, and the next run starts it again.
 * Progress is logged by bytes read.
 * @throws RewardTreeFormatError (a bad entry or row, named by position and field; a truncated
 *   document; a document of neither format; over REWARD_TREE_MAX_BYTES; another root's tree; Merkl
 *   rows summing past a uint256) and RewardTreeFetchError (transfer broken).
 */
export async function ingestRewardTree(
  deps: Pick<JobDeps, 'pg' | 'logger'>,
  { chainId, root, document, keccak, log }: IngestRewardTreeParams,
): Promise<IngestRewardTreeResult> {
  const store = await openTreeStore(deps.pg, chainId, root);
  try {
    const checker = createRewardTreeChecker(keccak);
    let rowsRead = 0;
    const progress = createProgress({ logger: deps.logger, total: document.size ?? 0, unit: 'bytes' });
    async function* counted() {
      for await (const chunk of document.bytes) {
        progress.advance(chunk.length, { ...log, entries: checker.entries, ...(rowsRead ? { rows: rowsRead } : {}) });
        yield chunk;
      }
    }
    // Where the time of a root goes: one line per phase.
    let phaseStart = performance.now();
    const phase = (name: string) => {
      const now = performance.now();
      deps.logger.info(
        { ...log, phase: name, ms: Math.round(now - phaseStart), entries: checker.entries },
        'reward tree phase',
      );
      phaseStart = now;
    };
    // Opened at the first batch, once the document has told its format (a connection runs one COPY at a time).
    let stage: TreeStage | null = null;
    let rowStage: ExpandedRowStage | null = null;
    let format: TreeDocumentFormat;
    try {
      const reader = readTreeDocument(counted());
      let next = await reader.next();
      for (; !next.done; next = await reader.next()) {
        const batch = next.value;
        if (batch.format === 'rewards') {
          stage ??= await openTreeStage(store.client, store.staged);
          const entries = batch.entries.map((p) => p.entry);
          for (const entry of entries) checker.add(entry);
          await stage.write(entries);
        } else {
          rowStage ??= await openExpandedRowStage(store.client, store.expanded);
          rowsRead += batch.rows.length;
          await rowStage.write(batch.rows.map((p) => p.row));
        }
        // Buffered chunks resolve the loop as microtasks, so without this it could run through many
        // of them before any I/O callback: other chains' units in this process would wait behind
        // the parse (~50–80 ms a turn). One batch (≤ 64 KiB of input, a few ms) at a time instead.
        await yieldToEventLoop();
      }
      format = next.value.format;
      if (next.value.format === 'rewards') checkHeader(next.value.header, chainId, root, document.where);
      await stage?.end();
      await rowStage?.end();
      phase('read and staged');
    } catch (error) {
      // The COPY holds the connection: end it so the store can be undone on it.
      await stage?.abort();
      await rowStage?.abort();
      throw error;
    }
    // Merkl's document names no root and has a row per (campaign, recipient, reason): its leaves are
    // the sums per (recipient, token), checked and staged as entries of our format.
    if (rowStage) {
      await sumExpandedRows(store.client, {
        rows: store.expanded,
        staged: store.staged,
        onEntries: (entries) => {
          for (const entry of entries) checker.add(entry);
        },
      });
      phase('summed per (recipient, token)');
    }
    // The layout (a worker) and the search for duplicates (PostgreSQL) run side by side; the
    // verdict leaves out the layout of a tree with duplicate leaves.
    const { packed, count } = checker.hashes();
    const [duplicates, layout] = await Promise.all([
      stagedDuplicates(store.client, store.staged),
      count ? layoutInWorker(packed, count) : null,
    ]);
    const verdict = checker.verdict({ onchainRoot: root, layout, duplicates });
    phase('verified');
    const result = { verdict, entries: checker.entries, format, ...(format === 'merkl' ? { rows: rowsRead } : {}) };
    if (!verdict.ok) return result;
    await store.commit(async (tx) => {
      await markTree(tx, {
        chainId,
        root,
        status: 'verified',
        computedRoot: verdict.computedRoot,
        leaves: verdict.leaves,
        error: null,
      });
      // Proof material of roots no longer claimable goes in the same transaction.
      await storeProofMaterial(tx, { chainId, root, layout: verdict.layout });
      await pruneProofMaterial(tx, chainId);
      phase('proof material stored');
    }, phase);
    phase('committed');
    return result;
  } finally {
    const error = await store.close();
    if (error)
      deps.logger.error(
        { ...log, seq: store.seq, err: error.message },
        'reward tree store not undone: the next store of the chain undoes it',
      );
  }
}
