/**
 * Worker thread of layoutInWorker.ts: sorts a tree's leaf hashes and lays the tree out (chunk roots,
 * top), so a million leaves (~2M keccaks, ~1 s of sorting) never hold the job process's event loop.
 * In: { hashes: ArrayBuffer (packed, `count` × 32 bytes), count, chunkLeaves }; out: the sorted
 * hashes and the top layers, transferred back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { NODE_BYTES, sortNodes } from '../../domain/rewardTreeLayout.js';
import { loadKeccak } from '../../internal/keccak.js';
import { layoutHashes } from './layoutRewardTree.js';

const { hashes, count, chunkLeaves } = workerData as { hashes: ArrayBuffer; count: number; chunkLeaves: number };
const keccak = await loadKeccak();
const sorted = sortNodes(new Uint8Array(hashes, 0, count * NODE_BYTES));
const { top } = layoutHashes(keccak, sorted, chunkLeaves);
parentPort!.postMessage({ sorted, layers: top.layers }, [
  sorted.buffer,
  ...top.layers.map((l) => l.buffer),
] as ArrayBuffer[]);
