import type { GrantRow, PrivacyRow } from '../../reads/campaign-access/repo.js';

/** A campaign's privacy settings with its dynamic grants, as the API answers them. */
export const serializePrivacy = (p: PrivacyRow, grants: GrantRow[]) => ({
  isPrivate: p.is_private,
  recipientsCanView: p.recipients_can_view,
  authorizedAddresses: p.authorized,
  dynamicGrants: grants.map(serializeGrant),
  updatedAt: p.updated_at?.toISOString() ?? null,
});

/** A dynamic access grant, as the API answers it. */
export const serializeGrant = (g: GrantRow) => ({
  userAddress: g.user_address,
  canManageAccess: g.can_manage_access,
  grantedBy: g.granted_by,
  grantedAt: g.granted_at.toISOString(),
});
