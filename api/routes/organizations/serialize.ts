import type { OrganizationRow } from './repo.js';

/** An organization as the API answers it. */
export const serializeOrganization = (r: OrganizationRow) => ({
  id: r.id,
  name: r.name,
  ownerAddress: r.owner_address,
  createdAt: r.created_at.toISOString(),
});
