import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { checkHeader, type TreeDocument } from '../indexer/fetch/createRewardTreeSource.js';
import { RewardTreeFormatError } from '../indexer/decode/parseRewardTree.js';
import { notJsonBy, readTreeDocument, type TreeDocumentFormat } from '../indexer/decode/readTreeDocument.js';
import { pruneProofMaterial, storeProofMaterial } from '../indexer/store/rewardProofMaterial.js';
import { markTree, stagedDuplicates } from '../indexer/store/rewardTrees.js';
import { openExpandedRowStage, sumExpandedRows, type ExpandedRowStage } from '../indexer/store/stageExpandedRows.js';
import { openTreeStage, type TreeStage } from '../indexer/store/stageRewardTree.js';
import { openTreeStore } from '../indexer/store/treeStore.js';
import { createRewardTreeChecker, type VerifyRewardTreeResult } from '../indexer/transform/checkRewardTree.js';
import { layoutInWorker } from '../indexer/transform/layoutInWorker.js';
import type { EntriesRefusal, StagedEntries } from '../indexer/store/stageEntryTexts.js';
import { type EntryStager, stageHere, startStageWorkers, stagingThreads } from '../indexer/store/stageInWorkers.js';
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
  /** Entries staged in worker threads or not; by default, for a document of WORKER_STAGING_BYTES or of unknown size. */
  stageInWorkers?: boolean;
};

/** A document at least this large (or of unknown size) has its entries staged in worker threads. */
export const WORKER_STAGING_BYTES = 4 * 1024 * 1024;

/** A run of entries handed to the stager, and how many bytes had been read when it was complete. */
type InFlight = { staged: Promise<StagedEntries | EntriesRefusal>; offset: number };

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
 * is split as it arrives (readTreeDocument, either format); our format's entries are parsed, checked,
 * their leaves hashed (32 bytes kept a leaf) and their COPY rows made in worker threads for a large
 * document (stageInWorkers.ts: the cores share the work, the job's thread only splits the text),
 * here for a small one, and taken back in document order into the COPY; a Merkl document's rows are staged as read, then summed
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
  { chainId, root, document, keccak, log, stageInWorkers }: IngestRewardTreeParams,
): Promise<IngestRewardTreeResult> {
  const store = await openTreeStore(deps.pg, chainId, root);
  const large = stageInWorkers ?? (document.size == null || document.size >= WORKER_STAGING_BYTES);
  const stager: EntryStager = large ? startStageWorkers() : stageHere(keccak);
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
    // Runs of entries being staged, taken back in document order (at most two a thread ahead).
    const inFlight: InFlight[] = [];
    const ahead = 2 * (large ? stagingThreads() : 1);
    // A run refused when taken back is the first refusal in document order (those before it staged).
    let refusedInOrder = false;
    const takeBack = async ({ staged, offset }: InFlight) => {
      const result = await staged;
      if ('refused' in result) {
        refusedInOrder = true;
        throw refusalError(result, offset);
      }
      checker.addChecked(result);
      await stage!.writeText(result.lines);
    };
    try {
      const reader = readTreeDocument(counted(), { entryTexts: true });
      let next = await reader.next();
      for (; !next.done; next = await reader.next()) {
        const batch = next.value;
        if (batch.format === 'rewards-text') {
          stage ??= await openTreeStage(store.client, store.staged);
          const staged = stager.stage(batch.texts, batch.first);
          staged.catch(() => {}); // taken back (and its failure seen) in order below
          inFlight.push({ staged, offset: batch.offset });
          while (inFlight.length >= ahead) await takeBack(inFlight.shift()!);
        } else if (batch.format === 'merkl') {
          rowStage ??= await openExpandedRowStage(store.client, store.expanded);
          rowsRead += batch.rows.length;
          await rowStage.write(batch.rows.map((p) => p.row));
        }
        // Buffered chunks resolve the loop as microtasks, so without this it could run through many
        // of them before any I/O callback: other chains' units in this process would wait behind
        // the parse (~50–80 ms a turn). One batch (≤ 64 KiB of input, a few ms) at a time instead.
        await yieldToEventLoop();
      }
      while (inFlight.length) await takeBack(inFlight.shift()!);
      format = next.value.format;
      if (next.value.format === 'rewards') checkHeader(next.value.header, chainId, root, document.where);
      await stage?.end();
      await rowStage?.end();
      phase('read and staged');
    } catch (error) {
      // An entry before the point where the text failed is refused first, as when read in order.
      const earlier = refusedInOrder ? null : await firstRefusal(inFlight.splice(0));
      // The COPY holds the connection: end it so the store can be undone on it.
      await stage?.abort();
      await rowStage?.abort();
      throw earlier ?? error;
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
    await stager.close();
    const error = await store.close();
    if (error)
      deps.logger.error(
        { ...log, seq: store.seq, err: error.message },
        'reward tree store not undone: the next store of the chain undoes it',
      );
  }
}

/** The refusal of a run of entries as the error reading them in order would have thrown. */
function refusalError(refusal: EntriesRefusal, offset: number): RewardTreeFormatError {
  if (refusal.refused === 'not-json') return notJsonBy(offset);
  return new RewardTreeFormatError(refusal.message, { details: refusal.details });
}

/** The first refusal among runs still being staged, in document order; null when none was refused. */
async function firstRefusal(runs: readonly InFlight[]): Promise<RewardTreeFormatError | null> {
  for (const { staged, offset } of runs) {
    const result = await staged.catch(() => null);
    if (result && 'refused' in result) return refusalError(result, offset);
  }
  return null;
}
