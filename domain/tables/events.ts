import type { PgClient } from '../../internal/pg.js';

/** What the event log records (README "Events"). */
export type EventType =
  | 'campaign.created'
  | 'campaign.changed'
  | 'campaign.ended'
  | 'opportunity.changed'
  | 'root.seen'
  | 'root.disputed'
  | 'root.dispute_resolved'
  | 'root.revoked'
  | 'root.live'
  | 'rewards.changed'
  | 'claim.indexed'
  | 'retracted';

export const EVENT_TYPES: readonly EventType[] = [
  'campaign.created',
  'campaign.changed',
  'campaign.ended',
  'opportunity.changed',
  'root.seen',
  'root.disputed',
  'root.dispute_resolved',
  'root.revoked',
  'root.live',
  'rewards.changed',
  'claim.indexed',
  'retracted',
];

/** One change to append: its subjects (the filters) and a small payload (what changed, not the document). */
export type NewEvent = {
  type: EventType;
  chainId?: number | null;
  campaignDbId?: string | null;
  opportunityId?: string | null;
  /** Lower-cased on write. */
  address?: string | null;
  root?: string | null;
  /** The block the change was read from: a reorg rollback above it retracts the event. */
  blockNumber?: number | null;
  payload?: Record<string, unknown>;
};

/** Namespace of the event-log append lock (first key of the two-key advisory lock). */
const EVENTS_LOCK_NAMESPACE = 0x657674; // "evt"

/** The columns a writer gives. */
const COLUMNS = 'type, chain_id, campaign_db_id, opportunity_id, address, root, block_number, payload';
/**
 * The creator of the event's campaign (lower case), which the log stores so that the `creator` filter
 * reads an index (migration 2026_12_07_20): computed here, for every writer, from the campaign row
 * written earlier in the same transaction.
 */
const CREATOR_OF = (alias: string) => `(SELECT lower(c.creator) FROM campaigns c WHERE c.id = ${alias}.campaign_db_id)`;

/**
 * Appends events inside the caller's transaction, so they commit or vanish with the change that
 * causes them. Every writer goes through here. The transaction-scoped lock serializes appenders
 * from their insert to their commit, so ids become visible in increasing order: a reader resuming
 * after id N never misses a smaller id committed later. Callers append last, just before commit,
 * to hold it briefly.
 */
export async function appendEvents(client: Pick<PgClient, 'query'>, events: readonly NewEvent[]): Promise<void> {
  if (!events.length) return;
  await client.query('SELECT pg_advisory_xact_lock($1, 0)', [EVENTS_LOCK_NAMESPACE]);
  const col = <T>(f: (e: NewEvent) => T) => events.map(f);
  await client.query(
    `INSERT INTO events (${COLUMNS}, creator)
     SELECT u.*, ${CREATOR_OF('u')}
     FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::jsonb[]) AS u(${COLUMNS})`,
    [
      col((e) => e.type),
      col((e) => e.chainId ?? null),
      col((e) => e.campaignDbId ?? null),
      col((e) => e.opportunityId ?? null),
      col((e) => e.address?.toLowerCase() ?? null),
      col((e) => e.root?.toLowerCase() ?? null),
      col((e) => e.blockNumber ?? null),
      col((e) => JSON.stringify(e.payload ?? {})),
    ],
  );
}

/**
 * As appendEvents, for events computed by a query (`select` yields type, chain_id, campaign_db_id,
 * opportunity_id, address, root, block_number, payload in that order): a large set goes from the
 * tables to the log without passing through the process. Addresses must already be lower-case.
 * @returns the number of events appended.
 */
export async function appendEventsFrom(
  client: Pick<PgClient, 'query'>,
  select: string,
  params: readonly unknown[],
): Promise<number> {
  await client.query('SELECT pg_advisory_xact_lock($1, 0)', [EVENTS_LOCK_NAMESPACE]);
  const res = await client.query(
    `INSERT INTO events (${COLUMNS}, creator) SELECT s.*, ${CREATOR_OF('s')} FROM (${select}) AS s(${COLUMNS})`,
    [...params],
  );
  return res.rowCount ?? 0;
}

/**
 * Inside a reorg rollback's transaction: marks the chain's events read from blocks above `ancestor`
 * as retracted and appends one `retracted` event naming them (none when there were none).
 * @returns the ids retracted.
 */
export async function retractEventsAbove(
  client: Pick<PgClient, 'query'>,
  chainId: number,
  ancestor: number,
): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `UPDATE events SET retracted = true
     WHERE chain_id = $1 AND block_number > $2 AND NOT retracted AND type <> 'retracted' RETURNING id`,
    [chainId, ancestor],
  );
  const ids = rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b));
  if (ids.length) await appendEvents(client, [{ type: 'retracted', chainId, payload: { ids, ancestor } }]);
  return ids;
}
