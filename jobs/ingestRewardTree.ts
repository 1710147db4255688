import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { checkHeader, type TreeDocument } from '../indexer/fetch/createRewardTreeSource.js';
import { readRewardTree } from '../indexer/decode/readRewardTree.js';
import { pruneProofMaterial, storeProofMaterial } from '../indexer/store/rewardProofMaterial.js';
import { markTree, stagedDuplicates } from '../indexer/store/rewardTrees.js';
import { openTreeStage } from '../indexer/store/stageRewardTree.js';
import { openTreeStore } from '../indexer/store/treeStore.js';
import { createRewardTreeChecker, type VerifyRewardTreeResult } from '../indexer/transform/checkRewardTree.js';
import { layoutInWorker } from '../indexer/transform/layoutInWorker.js';
import type { Keccak } from '../internal/keccak.js';
import { createProgress } from '../internal/progress.js';
import type { JobDeps } from './control/types.js';

export type IngestRewardTreeParams = {
  chainId: number;
  root: string;
  document: TreeDocument;
  keccak: Keccak;
  /** Fields every progress line carries. */
  log: Record<string, unknown>;
};

/** Verified and stored (`entries` of the document), or refused with the verdict and nothing stored. */
export type IngestRewardTreeResult = { verdict: VerifyRewardTreeResult; entries: number };

/**
 * Reads, verifies and stores one published tree in bounded memory, whatever its size: the document
 * is parsed as it arrives (readRewardTree), each entry checked and its leaf hashed (32 bytes kept
 * a leaf) and staged by COPY; at the end the hashes are sorted and laid out in a worker thread
 * (layoutInWorker) and compared with the on-chain root. Verified, the staged entries are stored by
 * change from two connections (indexer/store/treeStore.ts) and the tree's transaction commits its
 * versions with the proof material and the verified mark; refused, nothing is stored. A crash at any
 * point leaves no part of the tree visible (the previous root goes on serving): what a store left
 * is undone when it ends or by the next store of the chain, and the next run starts it again.
 * Progress is logged by bytes read.
 * @throws RewardTreeFormatError (a bad entry, named by position and field; a truncated document;
 *   over REWARD_TREE_MAX_BYTES; another root's tree) and RewardTreeFetchError (transfer broken).
 */
export async function ingestRewardTree(
  deps: Pick<JobDeps, 'pg' | 'logger'>,
  { chainId, root, document, keccak, log }: IngestRewardTreeParams,
): Promise<IngestRewardTreeResult> {
  const store = await openTreeStore(deps.pg, chainId, root);
  try {
    const stage = await openTreeStage(store.client, store.staged);
    const checker = createRewardTreeChecker(keccak);
    const progress = createProgress({ logger: deps.logger, total: document.size ?? 0, unit: 'bytes' });
    async function* counted() {
      for await (const chunk of document.bytes) {
        progress.advance(chunk.length, { ...log, entries: checker.entries });
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
    try {
      const reader = readRewardTree(counted());
      let next = await reader.next();
      for (; !next.done; next = await reader.next()) {
        const entries = next.value.map((p) => p.entry);
        for (const entry of entries) checker.add(entry);
        await stage.write(entries);
        // Buffered chunks resolve the loop as microtasks, so without this it could run through many
        // of them before any I/O callback: other chains' units in this process would wait behind
        // the parse (~50–80 ms a turn). One batch (≤ 64 KiB of input, a few ms) at a time instead.
        await yieldToEventLoop();
      }
      checkHeader(next.value, chainId, root, document.where);
      await stage.end();
      phase('read and staged');
    } catch (error) {
      // The COPY holds the connection: end it so the store can be undone on it.
      await stage.abort();
      throw error;
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
    const result = { verdict, entries: checker.entries };
    if (!verdict.ok) return result;
    await store.commit(async (tx) => {
      phase('compared and stored');
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
    });
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
