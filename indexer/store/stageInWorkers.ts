import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { Keccak } from '../../internal/keccak.js';
import { startModuleWorker } from '../../internal/moduleWorker.js';
import { type EntriesRefusal, type StagedEntries, stageEntryTexts } from './stageEntryTexts.js';

/** The worker module beside this one, in the form this one runs in (.ts from sources, .js when built). */
const WORKER_URL = new URL(`./stageWorker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** Stages runs of entry texts (stageEntryTexts), here or in worker threads. */
export type EntryStager = {
  stage(texts: string[], first: number): Promise<StagedEntries | EntriesRefusal>;
  close(): Promise<void>;
};

/** Worker threads for a tree's entries: one per core, at most 4 (the job's own thread splits the text). */
export const stagingThreads = (): number => Math.min(4, Math.max(1, os.availableParallelism()));

/** Stages on the calling thread (a small tree: no thread worth starting). */
export function stageHere(keccak: Keccak): EntryStager {
  return {
    stage: async (texts, first) => stageEntryTexts(keccak, texts, first),
    close: async () => {},
  };
}

type Pending = { resolve(result: StagedEntries | EntriesRefusal): void; reject(error: Error): void };

/**
 * `threads` worker threads (stageWorker.ts), each given runs in turn: the parsing, schema checks,
 * hashing and COPY rows of a large tree's entries (~17 µs an entry) spread over the cores while
 * the job's thread splits the text and PostgreSQL takes the rows. A thread that fails or exits
 * fails the runs it holds; `close` terminates them all.
 */
export function startStageWorkers(threads = stagingThreads()): EntryStager {
  let nextId = 0;
  let turn = 0;
  const held = new Map<Worker, Map<number, Pending>>();
  const failAll = (worker: Worker, error: Error) => {
    for (const pending of held.get(worker)?.values() ?? []) pending.reject(error);
    held.get(worker)?.clear();
  };
  const workers = Array.from({ length: threads }, () => {
    const worker = startModuleWorker(WORKER_URL);
    held.set(worker, new Map());
    worker.on('message', (message: { id: number; result?: StagedEntries | EntriesRefusal; error?: string }) => {
      const pending = held.get(worker)!.get(message.id);
      held.get(worker)!.delete(message.id);
      if (message.error !== undefined) pending?.reject(new Error(`reward tree staging worker: ${message.error}`));
      else pending?.resolve(message.result!);
    });
    worker.on('error', (error) => failAll(worker, error));
    worker.on('exit', (code) => failAll(worker, new Error(`reward tree staging worker exited (code ${code})`)));
    return worker;
  });
  return {
    stage(texts, first) {
      const worker = workers[turn++ % workers.length]!;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        held.get(worker)!.set(id, { resolve, reject });
        worker.postMessage({ id, texts, first });
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
