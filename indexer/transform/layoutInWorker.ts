import { Worker } from 'node:worker_threads';
import { CHUNK_LEAVES, nodeAt, type RewardTreeTop } from '../../domain/rewardTreeLayout.js';
import type { RewardTreeLayout } from './layoutRewardTree.js';

/** The worker module beside this one, in the form this one runs in (.ts under tsx, .js when built). */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(`./layoutWorker${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);

/** A worker running WORKER_URL; from TypeScript sources it registers tsx first (loaders do not reach workers). */
function startWorker(options: ConstructorParameters<typeof Worker>[1]): Worker {
  if (!FROM_SOURCE) return new Worker(WORKER_URL, options);
  const boot = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

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
    const worker = startWorker({ workerData: { hashes: buffer, count, chunkLeaves }, transferList: [buffer] });
    worker.once('message', ({ sorted, layers }: { sorted: Uint8Array; layers: Uint8Array[] }) => {
      const top: RewardTreeTop = { root: nodeAt(layers[layers.length - 1]!, 0), leafCount: count, chunkLeaves, layers };
      resolve({ sorted, top });
    });
    worker.once('error', reject);
    worker.once(
      'exit',
      (code) => code !== 0 && reject(new Error(`reward tree layout worker exited with code ${code}`)),
    );
  });
}
