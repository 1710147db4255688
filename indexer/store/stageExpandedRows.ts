import type { MerklExpandedRow } from '../decode/merklExpandedLeaf.js';
import { RewardTreeFormatError, type RewardTreeEntry } from '../decode/parseRewardTree.js';
import type { PgClient } from '../../internal/pg.js';
import { copyText, openCopyStream, openTreeStage } from './stageRewardTree.js';

/** Columns of a table of a Merkl document's rows, one per (campaign, recipient, reason) as read. */
export const EXPANDED_ROWS_COLUMNS =
  'recipient text NOT NULL, token text NOT NULL, campaign_id text NOT NULL, reason text NOT NULL, amount numeric(78, 0) NOT NULL';

/** Leaves per FETCH of sumExpandedRows (a few MB of breakdowns at most). */
const LEAVES_PER_FETCH = 10_000;
const UINT256 = 2n ** 256n;

/** Rows of a Merkl document streamed into a table by one COPY. */
export type ExpandedRowStage = {
  /** Queues rows; resolves when the COPY stream accepts more (backpressure). */
  write(rows: readonly MerklExpandedRow[]): Promise<void>;
  end(): Promise<void>;
  /** Abandons the COPY so the connection can be used again; never throws. */
  abort(): Promise<void>;
};

/**
 * Creates `table` (unlogged, EXPANDED_ROWS_COLUMNS; a store's `expanded` table, dropped with its
 * staging) and opens a COPY into it: a Merkl document's rows are staged as they are read, in memory
 * bounded by the stream's buffer, since the rows of one leaf may stand anywhere in the document.
 */
export async function openExpandedRowStage(client: PgClient, table: string): Promise<ExpandedRowStage> {
  await client.query(`CREATE UNLOGGED TABLE ${table} (${EXPANDED_ROWS_COLUMNS})`);
  const copy = openCopyStream(client, `COPY ${table} (recipient, token, campaign_id, reason, amount) FROM STDIN`);
  return {
    async write(rows) {
      let text = '';
      for (const r of rows)
        text += `${r.recipient}\t${r.token}\t${copyText(r.campaignId)}\t${copyText(r.reason)}\t${r.amount}\n`;
      await copy.write(text);
    },
    end: () => copy.end(),
    abort: () => copy.abort(),
  };
}

type SummedDbRow = { recipient: string; token: string; amount: string; breakdowns: [string, string, string][] };

export type SumExpandedRowsParams = {
  /** The table the rows were staged in (openExpandedRowStage). */
  rows: string;
  /** The table of staged entries to fill (STAGED_LEAVES_COLUMNS, a store's `staged`). */
  staged: string;
  /** Sees each batch of entries before it is staged (the checker hashes their leaves). */
  onEntries(entries: readonly RewardTreeEntry[]): void;
};

/**
 * Sums the staged Merkl rows into one entry per (recipient, token), the rows its breakdowns
 * (campaignId, reason, amount), as Merkl builds its leaves (merkl-dispute BaseTree.buildMerklTree):
 * a pair whose rows sum to zero is no leaf and is left out. Set-based in PostgreSQL (a GROUP BY that
 * spills to disk past work_mem), read through a cursor LEAVES_PER_FETCH leaves at a time, each batch
 * handed to `onEntries` and staged into `staged` by COPY: memory does not grow with the document.
 * One transaction on `client` (the cursor and the COPYs share the connection); the rows table is dropped
 * once summed.
 * @returns the number of entries (leaves) staged.
 * @throws RewardTreeFormatError when a pair's rows sum past a uint256.
 */
export async function sumExpandedRows(
  client: PgClient,
  { rows, staged, onEntries }: SumExpandedRowsParams,
): Promise<number> {
  // Statistics before the GROUP BY is planned (loaded by COPY, the table has none).
  await client.query(`ANALYZE ${rows}`);
  let count = 0;
  await client.query('BEGIN');
  try {
    await client.query(
      `DECLARE summed_leaves NO SCROLL CURSOR FOR
       SELECT recipient, token, sum(amount)::text AS amount,
         json_agg(json_build_array(campaign_id, reason, amount::text)) AS breakdowns
       FROM ${rows} GROUP BY recipient, token HAVING sum(amount) > 0`,
    );
    for (;;) {
      const { rows: leaves } = await client.query<SummedDbRow>(`FETCH ${LEAVES_PER_FETCH} FROM summed_leaves`);
      if (!leaves.length) break;
      const entries = leaves.map(toEntry);
      onEntries(entries);
      const stage = await openTreeStage(client, staged);
      try {
        await stage.write(entries);
        await stage.end();
      } catch (error) {
        await stage.abort();
        throw error;
      }
      count += entries.length;
    }
    await client.query('CLOSE summed_leaves');
    await client.query(`DROP TABLE ${rows}`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
  return count;
}

/** Pure: one summed (recipient, token) as an entry of our own format. */
function toEntry(r: SummedDbRow): RewardTreeEntry {
  if (BigInt(r.amount) >= UINT256)
    throw new RewardTreeFormatError(
      `invalid reward tree: the rows of ${r.recipient}/${r.token} sum to ${r.amount}, past a uint256`,
      { details: { field: '/', recipient: r.recipient, token: r.token } },
    );
  return {
    recipient: r.recipient as RewardTreeEntry['recipient'],
    token: r.token as RewardTreeEntry['token'],
    amount: r.amount,
    breakdowns: r.breakdowns.map(([campaignId, reason, amount]) => ({ campaignId, reason, amount })),
  };
}
