import type { PgPool } from '../../internal/pg.js';

type Queryable = Pick<PgPool, 'query'>;

/**
 * The one visibility rule of campaign data (README "Campaign visibility"), below every reader (the
 * API's routes, the webhook job): a private campaign (campaign_privacy.is_private) and everything
 * about it is served only to callers who may read it: the back office, its creator, its authorized
 * addresses and grantees, and its recipients when `recipientsCanView` (readablePrivateIds). Public
 * projections are built from public campaigns only (`PUBLIC_ONLY`).
 *
 * - `'none'`: public campaigns only (anonymous callers, public projections, no showPrivate);
 * - `'all'`: the back office;
 * - ids: public campaigns plus these private ones (internal ids).
 */
export type CampaignVisibility = 'none' | 'all' | readonly string[];

/** What public projections and callers without credentials see. */
export const PUBLIC_ONLY: CampaignVisibility = 'none';

/** Whether `visible` allows the private campaign `dbId`. */
export const isVisible = (visible: CampaignVisibility, dbId: string): boolean =>
  visible === 'all' || (visible !== 'none' && visible.includes(dbId));

/**
 * Internal ids of the private campaigns an address may read (docs/api-behaviour.md#campaign-privacy): as creator, in
 * the static authorized list, with an active grant, or as a reward recipient when recipients may view.
 * @param ids restrict to these ids (a by-id read, or the campaigns of events about to be sent); all when absent.
 * Tables: campaign_privacy, campaigns, campaign_access_grants, reward_breakdown_versions (any stored tree).
 */
export async function readablePrivateIds(db: Queryable, address: string, ids?: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT pv.campaign_db_id AS id FROM campaign_privacy pv JOIN campaigns c ON c.id = pv.campaign_db_id
     WHERE pv.is_private AND ($2::text[] IS NULL OR pv.campaign_db_id = ANY($2::text[])) AND (
       lower(c.creator) = $1
       OR pv.authorized @> jsonb_build_array(jsonb_build_object('address', $1::text))
       OR EXISTS (SELECT 1 FROM campaign_access_grants g WHERE g.campaign_db_id = pv.campaign_db_id AND g.user_address = $1 AND g.revoked_at IS NULL)
       OR (pv.recipients_can_view AND EXISTS (SELECT 1 FROM reward_breakdown_versions b
             WHERE b.recipient = $1 AND b.chain_id = c.distribution_chain_id AND b.campaign_id = c.campaign_id)))`,
    [address.toLowerCase(), ids ? [...ids] : null],
  );
  return rows.map((r) => r.id);
}

/**
 * What the wallet `address` may see (public campaigns plus the private ones it may read): the rule
 * for a caller signed in as it, and for what its webhooks receive (jobs/webhooks/serveWebhook.ts).
 */
export function walletVisibility(db: Queryable, address: string): Promise<CampaignVisibility> {
  return readablePrivateIds(db, address);
}

/**
 * Of `ids` (internal campaign ids), those private now. One indexed read (none without ids).
 * Table campaign_privacy.
 */
export async function privateCampaignsAmong(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const { rows } = await db.query<{ id: string }>(
    'SELECT campaign_db_id AS id FROM campaign_privacy WHERE campaign_db_id = ANY($1::text[]) AND is_private',
    [[...ids]],
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * SQL predicate: the campaign row `alias` (its internal `id`) is visible under the visibility whose
 * `visibilitySqlParams` are bound at `$allParam` (bool) and `$idsParam` (text[]). Every PostgreSQL
 * read that returns campaign rows, ids or figures derived from campaigns filters through it.
 */
export function visibleCampaignSql(alias: string, allParam: number, idsParam: number): string {
  return `($${allParam}::bool OR $${idsParam}::text[] @> ARRAY[${alias}.id] OR ${publicCampaignSql(alias)})`;
}

/** SQL predicate: the campaign row `alias` is public (what PUBLIC_ONLY allows). */
export function publicCampaignSql(alias: string): string {
  return `NOT EXISTS (SELECT 1 FROM campaign_privacy pv WHERE pv.campaign_db_id = ${alias}.id AND pv.is_private)`;
}

/** The two parameters of visibleCampaignSql: every campaign, and the private ids allowed. */
export function visibilitySqlParams(visible: CampaignVisibility): [boolean, string[]] {
  return [visible === 'all', visible === 'all' || visible === 'none' ? [] : [...visible]];
}
