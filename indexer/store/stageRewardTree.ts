import { once } from 'node:events';
import { from as copyFrom } from 'pg-copy-streams';
import type { PgClient } from '../../internal/pg.js';
import { storeStagedTree } from './rewardTrees.js';
import { type LeafEntry, stagedLeaf } from './stagedLeaf.js';
import { emptyTempTable } from './tempTables.js';

/** Entries of a tree streamed into staged_leaves (rewardTrees.ts) by one COPY. */
export type TreeStage = {
  /** Queues entries; resolves when the COPY stream accepts more (backpressure). */
  write(entries: readonly LeafEntry[]): Promise<void>;
  /** Ends the COPY; resolves once PostgreSQL has every row. */
  end(): Promise<void>;
  /** Abandons the COPY (CopyFail) so the connection can roll back; never throws. */
  abort(): Promise<void>;
};

/** Columns of a table of staged entries: one row per leaf with its breakdowns and digest (stagedLeaf.ts). */
export const STAGED_LEAVES_COLUMNS =
  'recipient text NOT NULL, token text NOT NULL, amount numeric(78, 0) NOT NULL, digest bytea NOT NULL, breakdowns text NOT NULL';

/** A value of COPY's text format: backslash, tab, newline and carriage return escaped. */
export const copyText = (value: string) =>
  /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!)
    : value;

/** One COPY … FROM STDIN in progress on a connection (its text written as it is made). */
export type CopyStream = {
  /** Queues text (rows in COPY's text format); resolves when the stream accepts more (backpressure). */
  write(text: string): Promise<void>;
  /** Ends the COPY; resolves once PostgreSQL has every row. */
  end(): Promise<void>;
  /** Abandons the COPY (CopyFail) so the connection can roll back; never throws. */
  abort(): Promise<void>;
};

/**
 * Starts `copy` (a `COPY … FROM STDIN` statement) on `client`. A COPY that fails (the connection, a
 * value) rejects `write` or `end` with PostgreSQL's error. The connection runs nothing else until it ends.
 */
export function openCopyStream(client: PgClient, copy: string): CopyStream {
  const stream = client.query(copyFrom(copy));
  let failure: Error | null = null;
  stream.on('error', (error: Error) => {
    failure = error;
  });
  const done = once(stream, 'finish');
  // Awaited by end(); an early failure is also seen through `failure` meanwhile.
  done.catch(() => {});
  return {
    async write(text) {
      if (failure) throw failure;
      if (!stream.write(text)) await Promise.race([once(stream, 'drain'), done]);
      if (failure) throw failure;
    },
    async end() {
      if (failure) throw failure;
      stream.end();
      await done;
      if (failure) throw failure;
    },
    async abort() {
      if (stream.writableFinished) return;
      stream.destroy(new Error('reward tree staging abandoned'));
      await done.catch(() => {});
    },
  };
}

/**
 * Opens a COPY into `table` (STAGED_LEAVES_COLUMNS; by default the temp table staged_leaves of the
 * caller's transaction, created or emptied first), one row per entry with its breakdowns and digest
 * (stagedLeaf.ts), so a tree of any size is staged as it is read, in memory bounded by the stream's
 * buffer. A COPY that fails (the connection, a value) rejects `write` or `end` with PostgreSQL's error.
 */
export async function openTreeStage(client: PgClient, table?: string): Promise<TreeStage> {
  if (!table) await emptyTempTable(client, 'staged_leaves', STAGED_LEAVES_COLUMNS);
  const copy = openCopyStream(
    client,
    `COPY ${table ?? 'staged_leaves'} (recipient, token, amount, digest, breakdowns) FROM STDIN`,
  );
  return {
    async write(entries) {
      let text = '';
      for (const e of entries) {
        const { breakdowns, digest } = stagedLeaf(e);
        // bytea in COPY's text format is `\x<hex>`, its backslash escaped.
        text += `${e.recipient}\t${e.token}\t${e.amount}\t\\\\x${digest}\t${copyText(breakdowns)}\n`;
      }
      await copy.write(text);
    },
    end: () => copy.end(),
    abort: () => copy.abort(),
  };
}

export type StoreTreeEntriesParams = {
  chainId: number;
  root: string;
  leaves: readonly { recipient: string; token: string; amount: string }[];
  breakdowns: readonly { recipient: string; token: string; campaignId: string; reason: string; amount: string }[];
};

/**
 * Inside the caller's transaction: the amounts of a tree held in memory (tests, small trees),
 * staged as the roots job stages a document and stored by change (rewardTrees.ts storeStagedTree);
 * its status is the caller's business.
 * @throws Error when a breakdown names a (recipient, token) without a leaf.
 */
export async function storeTreeEntries(
  client: PgClient,
  { chainId, root, leaves, breakdowns }: StoreTreeEntriesParams,
): Promise<void> {
  const entries = new Map<string, LeafEntry & { breakdowns: LeafEntry['breakdowns'][number][] }>();
  for (const l of leaves) entries.set(`${l.recipient}|${l.token}`, { ...l, breakdowns: [] });
  for (const b of breakdowns) {
    const entry = entries.get(`${b.recipient}|${b.token}`);
    if (!entry) throw new Error(`breakdown of ${b.recipient}/${b.token} has no leaf`);
    entry.breakdowns.push(b);
  }
  const stage = await openTreeStage(client);
  try {
    await stage.write([...entries.values()]);
    await stage.end();
  } catch (error) {
    await stage.abort();
    throw error;
  }
  await storeStagedTree(client, chainId, root);
}
