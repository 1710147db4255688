import type { PgClient } from '../../internal/pg.js';
import { loadLiveRoot } from '../../domain/tables/roots.js';
import { appendEvents, appendEventsFrom } from '../../domain/tables/events.js';
import { emptyTempTable } from './tempTables.js';

/**
 * The leaves whose amount differs between the trees `$2` (new) and `$3` (old, 0: none) of chain `$1`:
 * only versions opened or closed between the two sequence numbers can differ (a version valid at
 * both is the same row), so two index ranges are read, not every leaf. Columns: recipient, token,
 * amount (null: gone), previous (null: new).
 */
const CHANGED_LEAVES = `
  WITH touched AS (
    SELECT recipient, token, amount, since_seq, until_seq FROM reward_leaf_versions
    WHERE chain_id = $1 AND (
      (since_seq > least($2::bigint, $3::bigint) AND since_seq <= greatest($2::bigint, $3::bigint))
      OR (until_seq > least($2::bigint, $3::bigint) AND until_seq <= greatest($2::bigint, $3::bigint)))),
  n AS (SELECT recipient, token, amount FROM touched WHERE since_seq <= $2 AND (until_seq IS NULL OR until_seq > $2)),
  o AS (SELECT recipient, token, amount FROM touched WHERE since_seq <= $3 AND (until_seq IS NULL OR until_seq > $3))
  SELECT coalesce(n.recipient, o.recipient) AS recipient, coalesce(n.token, o.token) AS token, n.amount, o.amount AS previous
  FROM n FULL JOIN o ON o.recipient = n.recipient AND o.token = n.token
  WHERE n.amount IS DISTINCT FROM o.amount`;

export type LiveRootAnnouncement = {
  root: string;
  previousRoot: string | null;
  rewardsChanged: number;
  addressEvents: boolean;
};

/**
 * Inside a transaction holding the chain's write lock: when the live root (the `getMerkleRoot()`
 * rule, loadLiveRoot) with a verified tree differs from the one last announced, appends `root.live`
 * and one `rewards.changed` per (address, token) whose amount changed between the two trees (none
 * when more than `maxAddressEvents` did: `root.live` then carries the count and `addressEvents:
 * false`), and records the announcement. The events carry the root's block, so a reorg removing
 * it retracts them and deletes the announcement (CHAIN_DERIVED_TABLES).
 * @returns what was announced, or null when the live root is unchanged or not yet servable.
 */
export async function announceLiveRoot(
  client: PgClient,
  chainId: number,
  maxAddressEvents: number,
): Promise<LiveRootAnnouncement | null> {
  const live = await loadLiveRoot(client, chainId);
  if (live?.treeStatus !== 'verified') return null;
  const { rows: lastRows } = await client.query<{ root: string; seq: string }>(
    'SELECT root, seq FROM live_root_announcements WHERE chain_id = $1 ORDER BY announced_at DESC, block_number DESC LIMIT 1',
    [chainId],
  );
  const last = lastRows[0] ?? null;
  if (last?.root === live.root) return null;
  const { rows: seqRows } = await client.query<{ seq: string }>(
    'SELECT seq FROM reward_trees WHERE chain_id = $1 AND root = $2 AND seq IS NOT NULL',
    [chainId, live.root],
  );
  const seq = seqRows[0]?.seq;
  if (seq === undefined) return null;
  // The changed leaves are computed once (23 ms at 1% of a million leaves): the first cap + 1 of them are
  // kept, each row carrying how many there are in all, which root.live states whether or not they are announced.
  await emptyTempTable(
    client,
    'announced_leaf_changes',
    'recipient text, token text, amount numeric, previous numeric, total bigint',
  );
  await client.query(
    `INSERT INTO announced_leaf_changes SELECT c.recipient, c.token, c.amount, c.previous, count(*) OVER ()
     FROM (${CHANGED_LEAVES}) c ORDER BY c.recipient, c.token LIMIT $4`,
    [chainId, seq, last?.seq ?? '0', maxAddressEvents + 1],
  );
  const { rows: totalRows } = await client.query<{ total: string }>(
    'SELECT total::text FROM announced_leaf_changes LIMIT 1',
  );
  const rewardsChanged = Number(totalRows[0]?.total ?? 0);
  const addressEvents = rewardsChanged <= maxAddressEvents;
  await appendEvents(client, [
    {
      type: 'root.live',
      chainId,
      root: live.root,
      blockNumber: live.blockNumber,
      payload: {
        previousRoot: last?.root ?? null,
        endOfDisputePeriod: live.endOfDisputePeriod,
        rewardsChanged,
        addressEvents,
      },
    },
  ]);
  if (addressEvents && rewardsChanged)
    await appendEventsFrom(
      client,
      `SELECT 'rewards.changed', $1::int, NULL, NULL, c.recipient, $2::text, $3::bigint,
         jsonb_build_object('token', c.token, 'amount', coalesce(c.amount, 0)::text, 'previousAmount', coalesce(c.previous, 0)::text)
       FROM announced_leaf_changes c ORDER BY c.recipient, c.token`,
      [chainId, live.root, live.blockNumber],
    );
  await client.query(
    'INSERT INTO live_root_announcements (chain_id, root, seq, block_number) VALUES ($1, $2, $3, $4)',
    [chainId, live.root, seq, live.blockNumber],
  );
  return { root: live.root, previousRoot: last?.root ?? null, rewardsChanged, addressEvents };
}
