import { withTransaction as inWriteTransaction, type PgPool } from '../../../internal/pg.js';

export type OrganizationRow = { id: string; name: string; owner_address: string; created_at: Date };

/** Creates an organization; undefined when the owner already has one of that name (any case). */
export async function insertOrganization(
  pool: PgPool,
  name: string,
  owner: string,
): Promise<OrganizationRow | undefined> {
  return inWriteTransaction(
    pool,
    async (tx) =>
      (
        await tx.query<OrganizationRow>(
          'INSERT INTO organizations (name, owner_address) VALUES ($1, $2) ON CONFLICT (owner_address, lower(name)) DO NOTHING RETURNING *',
          [name, owner],
        )
      ).rows[0],
  );
}

/** The organizations one wallet owns, oldest first. */
export async function listOrganizations(pool: PgPool, owner: string): Promise<OrganizationRow[]> {
  const { rows } = await pool.query<OrganizationRow>(
    'SELECT * FROM organizations WHERE owner_address = $1 ORDER BY created_at, id',
    [owner],
  );
  return rows;
}
