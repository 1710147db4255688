/**
 * Worker thread of stageInWorkers.ts: stages runs of entry texts (stageEntryTexts) as they come.
 * In: { id, texts, first }; out: { id, result } (a refusal, or the staged entries with their hashes'
 * buffer transferred), or { id, error } when staging itself failed.
 */
import { parentPort } from 'node:worker_threads';
import { loadKeccak } from '../../internal/keccak.js';
import { stageEntryTexts } from './stageEntryTexts.js';

const keccak = await loadKeccak();
const port = parentPort!;
port.on('message', ({ id, texts, first }: { id: number; texts: string[]; first: number }) => {
  try {
    const result = stageEntryTexts(keccak, texts, first);
    port.postMessage({ id, result }, 'hashes' in result ? [result.hashes.buffer as ArrayBuffer] : []);
  } catch (error) {
    port.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
