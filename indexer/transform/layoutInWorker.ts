import { startModuleWorker } from '../../internal/moduleWorker.js';
import { CHUNK_LEAVES, nodeAt, type RewardTreeTop } from '../../domain/rewardTreeLayout.js';
import type { RewardTreeLayout } from './layoutRewardTree.js';

/** The worker module beside this one, in the form this one runs in (.ts from sources, .js when built). */
const WORKER_URL = new URL(`./layoutWorker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/**
 * Sorts `count` packed leaf hashes and lays the tree out in a worker thread (layoutWorker.ts):
 * what takes seconds at a million leaves runs beside the job process's event loop, not on it.
 * `hashes` is handed over (its buffer is transferred and unusable after the call).
 */
export function layoutInWorker(
  hashes: Uint8Array,
  count: number,
  chunkLeaves = CHUNK_LEAVES,
): Promise<RewardTreeLayout> {
  const buffer =
    hashes.byteOffset === 0 && hashes.byteLength === hashes.buffer.byteLength
      ? (hashes.buffer as ArrayBuffer)
      : hashes.slice().buffer;
  return new Promise((resolve, reject) => {
    const worker = startModuleWorker(WORKER_URL, {
      workerData: { hashes: buffer, count, chunkLeaves },
      transferList: [buffer],
    });
    let answered = false;
    worker.once('message', ({ sorted, layers }: { sorted: Uint8Array; layers: Uint8Array[] }) => {
      answered = true;
      const top: RewardTreeTop = { root: nodeAt(layers[layers.length - 1]!, 0), leafCount: count, chunkLeaves, layers };
      resolve({ sorted, top });
    });
    worker.once('error', reject);
    // An exit without an answer (a crash, a module that never ran) must not leave the ingestion waiting.
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`reward tree layout worker exited (code ${code}) without an answer`));
    });
  });
}
