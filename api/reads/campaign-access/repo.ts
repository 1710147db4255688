import { appendEvents } from '../../../domain/tables/events.js';
import { withTransaction as inWriteTransaction, type PgPool } from '../../../internal/pg.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { parseCampaignPathId } from '../../../domain/ids.js';

// Who may read a private campaign is the visibility rule's (below api/ and jobs/).
export { readablePrivateIds } from '../../../domain/visibility/campaignVisibility.js';

type Queryable = Pick<PgPool, 'query'>;

export type AuthorizedAddress = { address: string; canManageAccess: boolean };
export type PrivacyRow = {
  is_private: boolean;
  recipients_can_view: boolean;
  authorized: AuthorizedAddress[];
  updated_at: Date | null;
};
export type GrantRow = { user_address: string; can_manage_access: boolean; granted_by: string; granted_at: Date };
/** The campaign an access route is about, with its creator (lower case). */
export type AccessCampaign = { id: string; creator: string; distribution_chain_id: number; campaign_id: string };

const PUBLIC_DEFAULTS: PrivacyRow = { is_private: false, recipients_can_view: true, authorized: [], updated_at: null };

/** A path id (internal, or `distributionChainId-campaignId`) → the campaign and its creator, or null. Tables: campaigns. */
export async function loadAccessCampaign(db: Queryable, id: string): Promise<AccessCampaign | null> {
  const key = parseCampaignPathId(id);
  const select = 'SELECT id, lower(creator) AS creator, distribution_chain_id, campaign_id FROM campaigns';
  const { rows } =
    key.kind === 'composite'
      ? await db.query<AccessCampaign>(`${select} WHERE distribution_chain_id = $1 AND campaign_id = $2`, [
          key.distributionChainId,
          key.campaignId,
        ])
      : await db.query<AccessCampaign>(`${select} WHERE id = $1`, [key.id]);
  return rows[0] ?? null;
}

/** The campaign's privacy settings (public defaults when never set). Tables: campaign_privacy. */
export async function loadPrivacy(db: Queryable, campaignDbId: string): Promise<PrivacyRow> {
  const { rows } = await db.query<PrivacyRow>(
    'SELECT is_private, recipients_can_view, authorized, updated_at FROM campaign_privacy WHERE campaign_db_id = $1',
    [campaignDbId],
  );
  return rows[0] ?? PUBLIC_DEFAULTS;
}

/** Active dynamic grants of a campaign, by address. Tables: campaign_access_grants. */
export async function listGrants(db: Queryable, campaignDbId: string): Promise<GrantRow[]> {
  return (
    await db.query<GrantRow>(
      'SELECT user_address, can_manage_access, granted_by, granted_at FROM campaign_access_grants WHERE campaign_db_id = $1 AND revoked_at IS NULL ORDER BY user_address',
      [campaignDbId],
    )
  ).rows;
}

/** Whether the address holds an active grant with `canManageAccess`. Tables: campaign_access_grants. */
export async function isGrantManager(db: Queryable, campaignDbId: string, address: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'SELECT 1 FROM campaign_access_grants WHERE campaign_db_id = $1 AND user_address = $2 AND revoked_at IS NULL AND can_manage_access',
    [campaignDbId, address],
  );
  return Boolean(rowCount);
}

export type PrivacyUpdate = {
  isPrivate?: boolean;
  recipientsCanView?: boolean;
  authorizedAddresses?: AuthorizedAddress[];
};

/**
 * Writes the privacy settings and queues the campaign for the search projector, in one transaction
 * (the campaign document's `isPrivate` follows, and its parent's `childCampaignIds`). Tables:
 * campaign_privacy, campaigns, search_outbox, events (campaign.changed when made public or private).
 * @returns the settings, and the campaign documents it queued (the campaign's, and its parent's if it has one).
 */
export async function updatePrivacy(
  db: PgPool,
  campaignDbId: string,
  u: PrivacyUpdate,
  by: string,
): Promise<{ privacy: PrivacyRow; campaignDocuments: string[] }> {
  return inWriteTransaction(db, async (tx) => {
    const authorized = u.authorizedAddresses?.map((a) => ({
      address: a.address.toLowerCase(),
      canManageAccess: a.canManageAccess,
    }));
    const was = await tx.query<{ is_private: boolean }>(
      'SELECT is_private FROM campaign_privacy WHERE campaign_db_id = $1 FOR UPDATE',
      [campaignDbId],
    );
    const { rows } = await tx.query<PrivacyRow>(
      `INSERT INTO campaign_privacy (campaign_db_id, is_private, recipients_can_view, authorized, updated_by)
       VALUES ($1, COALESCE($2, false), COALESCE($3, true), COALESCE($4::jsonb, '[]'), $5)
       ON CONFLICT (campaign_db_id) DO UPDATE SET is_private = COALESCE($2, campaign_privacy.is_private),
         recipients_can_view = COALESCE($3, campaign_privacy.recipients_can_view), authorized = COALESCE($4::jsonb, campaign_privacy.authorized),
         updated_by = $5, updated_at = now()
       RETURNING is_private, recipients_can_view, authorized, updated_at`,
      [
        campaignDbId,
        u.isPrivate ?? null,
        u.recipientsCanView ?? null,
        authorized ? JSON.stringify(authorized) : null,
        by,
      ],
    );
    // The campaign's document, and its parent's (whose childCampaignIds name public children only).
    const campaign = (
      await tx.query<{ parent_campaign_id: string | null; distribution_chain_id: number }>(
        'SELECT parent_campaign_id, distribution_chain_id FROM campaigns WHERE id = $1',
        [campaignDbId],
      )
    ).rows[0];
    const parent = campaign?.parent_campaign_id;
    const campaignDocuments = parent ? [campaignDbId, parent] : [campaignDbId];
    await enqueueOutbox(tx, 'campaign', campaignDocuments);
    // The opportunity document is built from public campaigns only: re-project it too.
    const opportunity = (
      await tx.query<{ opportunity_id: string | null }>('SELECT opportunity_id FROM campaigns_current WHERE id = $1', [
        campaignDbId,
      ])
    ).rows[0]?.opportunity_id;
    if (opportunity) await enqueueOutbox(tx, 'opportunity', [opportunity]);
    // Made public: integrators learn of a campaign they could not see until now. Made private: those
    // who may still see it (its creator, grantees, the back office; the event is about a private
    // campaign, so the visibility rule keeps it from everyone else) learn that their public mirrors
    // must drop it (#43).
    const wasPrivate = Boolean(was.rows[0]?.is_private);
    if (wasPrivate !== rows[0]!.is_private)
      await appendEvents(tx, [
        {
          type: 'campaign.changed',
          chainId: campaign?.distribution_chain_id ?? null,
          campaignDbId,
          opportunityId: opportunity ?? null,
          payload: { change: 'privacy', isPrivate: rows[0]!.is_private },
        },
      ]);
    return { privacy: rows[0]!, campaignDocuments };
  });
}

/** The opportunity a campaign belongs to, if any. Tables: campaigns_current. */
export async function opportunityOf(db: PgPool, campaignDbId: string): Promise<string | null> {
  const { rows } = await db.query<{ opportunity_id: string | null }>(
    'SELECT opportunity_id FROM campaigns_current WHERE id = $1',
    [campaignDbId],
  );
  return rows[0]?.opportunity_id ?? null;
}

/** Grants (or re-activates, or changes) a dynamic grant. Tables: campaign_access_grants. */
export async function grantAccess(
  db: PgPool,
  campaignDbId: string,
  user: string,
  canManageAccess: boolean,
  by: string,
): Promise<void> {
  await inWriteTransaction(db, (tx) =>
    tx.query(
      `INSERT INTO campaign_access_grants (campaign_db_id, user_address, can_manage_access, granted_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (campaign_db_id, user_address) DO UPDATE SET can_manage_access = $3, granted_by = $4, granted_at = now(), revoked_at = NULL`,
      [campaignDbId, user.toLowerCase(), canManageAccess, by],
    ),
  );
}

/** Revokes an active grant (soft delete). @returns false when there was none. Tables: campaign_access_grants. */
export async function revokeAccess(db: PgPool, campaignDbId: string, user: string): Promise<boolean> {
  return inWriteTransaction(db, async (tx) =>
    Boolean(
      (
        await tx.query(
          'UPDATE campaign_access_grants SET revoked_at = now() WHERE campaign_db_id = $1 AND user_address = $2 AND revoked_at IS NULL',
          [campaignDbId, user.toLowerCase()],
        )
      ).rowCount,
    ),
  );
}
