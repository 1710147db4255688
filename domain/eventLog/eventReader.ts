import type { Queryable } from '../../internal/pg.js';
import {
  type CampaignVisibility,
  privateCampaignsAmong,
  readablePrivateIds,
} from '../visibility/campaignVisibility.js';
import { campaignIdsOf, type EventRow, withoutCampaigns } from './readEvents.js';

/**
 * Who reads the event log, for the visibility rule: what it may see is asked of PostgreSQL when an
 * event is sent, not when the reader connected, so a campaign made private, a grant revoked or a
 * campaign made readable holds for the very next event sent (#43 F3, F4).
 * - `anonymous`: public campaigns only;
 * - `backOffice`: everything;
 * - `wallet`: public campaigns plus the private ones the address may read (readablePrivateIds).
 */
export type EventReader = { kind: 'anonymous' } | { kind: 'backOffice' } | { kind: 'wallet'; address: string };

export const ANONYMOUS_READER: EventReader = { kind: 'anonymous' };

/** Which campaigns of `ids` are private now; the API's feed batches the calls of its streams into one query. */
export type PrivateNow = (ids: readonly string[]) => Promise<Set<string>>;

/**
 * What `reader` may see now, as a CampaignVisibility for the SQL predicate (a JSON page).
 * Tables: those of readablePrivateIds.
 */
export async function readerVisibility(db: Queryable, reader: EventReader): Promise<CampaignVisibility> {
  if (reader.kind === 'backOffice') return 'all';
  if (reader.kind === 'anonymous') return 'none';
  return readablePrivateIds(db, reader.address);
}

/**
 * Of `rows`, those `reader` may see now (order kept): an event without a campaign, or about a
 * campaign public now, or private and readable by the reader now. One query for the privacy of the
 * rows' campaigns (through `privateNow` when given), and for a wallet one more restricted to the
 * private ones among them; none for the back office or rows without campaigns.
 * Tables: campaign_privacy (and those of readablePrivateIds).
 */
export async function visibleEvents<T extends Pick<EventRow, 'campaign_db_id'>>(
  db: Queryable,
  reader: EventReader,
  rows: readonly T[],
  privateNow: PrivateNow = (ids) => privateCampaignsAmong(db, ids),
): Promise<T[]> {
  if (reader.kind === 'backOffice') return [...rows];
  const ids = campaignIdsOf(rows);
  if (!ids.length) return [...rows];
  // A copy: the feed answers several streams with one set.
  const hidden = new Set(await privateNow(ids));
  if (hidden.size && reader.kind === 'wallet')
    for (const id of await readablePrivateIds(db, reader.address, [...hidden])) hidden.delete(id);
  return withoutCampaigns(rows, hidden);
}
