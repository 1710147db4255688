import { once } from 'node:events';
import { from as copyFrom } from 'pg-copy-streams';
import type { PgClient } from '../../internal/pg.js';
import type { RewardTreeEntry } from '../decode/parseRewardTree.js';
import { createStagedEntries } from './rewardTrees.js';
import { stagedLeaf } from './stagedLeaf.js';

/** Entries of a tree streamed into staged_leaves (rewardTrees.ts) by one COPY. */
export type TreeStage = {
  /** Queues entries; resolves when the COPY stream accepts more (backpressure). */
  write(entries: readonly RewardTreeEntry[]): Promise<void>;
  /** Ends the COPY; resolves once PostgreSQL has every row. */
  end(): Promise<void>;
  /** Abandons the COPY (CopyFail) so the connection can roll back; never throws. */
  abort(): Promise<void>;
};

/** A value of COPY's text format: backslash, tab, newline and carriage return escaped. */
const copyText = (value: string) =>
  /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!)
    : value;

/**
 * Inside the caller's transaction: opens a COPY into staged_leaves (created or emptied first), one
 * row per entry with its breakdowns and digest (stagedLeaf.ts), so a tree of any size is staged as it is
 * read, in memory bounded by the stream's buffer. A COPY that fails (the connection, a value)
 * rejects `write` or `end` with PostgreSQL's error.
 */
export async function openTreeStage(client: PgClient): Promise<TreeStage> {
  await createStagedEntries(client);
  const copy = client.query(copyFrom('COPY staged_leaves (recipient, token, amount, digest, breakdowns) FROM STDIN'));
  let failure: Error | null = null;
  copy.on('error', (error: Error) => {
    failure = error;
  });
  const done = once(copy, 'finish');
  // Awaited by end(); an early failure is also seen through `failure` meanwhile.
  done.catch(() => {});
  return {
    async write(entries) {
      if (failure) throw failure;
      let text = '';
      for (const e of entries) {
        const { breakdowns, digest } = stagedLeaf(e);
        // bytea in COPY's text format is `\x<hex>`, its backslash escaped.
        text += `${e.recipient}\t${e.token}\t${e.amount}\t\\\\x${digest}\t${copyText(breakdowns)}\n`;
      }
      if (!copy.write(text)) await Promise.race([once(copy, 'drain'), done]);
      if (failure) throw failure;
    },
    async end() {
      if (failure) throw failure;
      copy.end();
      await done;
      if (failure) throw failure;
    },
    async abort() {
      if (copy.writableFinished) return;
      copy.destroy(new Error('reward tree staging abandoned'));
      await done.catch(() => {});
    },
  };
}
