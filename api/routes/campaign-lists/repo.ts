import { withTransaction, type PgPool } from '../../../internal/pg.js';

export type CampaignListRow = {
  owner: string;
  name: string;
  campaign_ids: string[];
  created_at: Date;
  updated_at: Date;
};

/** The lists of one owner (lower-cased), by name. Tables: campaign_lists. */
export async function listCampaignLists(db: PgPool, owner: string): Promise<CampaignListRow[]> {
  return (await db.query<CampaignListRow>('SELECT * FROM campaign_lists WHERE owner = $1 ORDER BY name', [owner])).rows;
}

export async function getCampaignList(db: PgPool, owner: string, name: string): Promise<CampaignListRow | null> {
  return (
    (await db.query<CampaignListRow>('SELECT * FROM campaign_lists WHERE owner = $1 AND name = $2', [owner, name]))
      .rows[0] ?? null
  );
}

/** Creates a list; null when the owner already has one of that name. */
export async function createCampaignList(
  db: PgPool,
  owner: string,
  name: string,
  ids: string[],
): Promise<CampaignListRow | null> {
  return withTransaction(
    db,
    async (tx) =>
      (
        await tx.query<CampaignListRow>(
          'INSERT INTO campaign_lists (owner, name, campaign_ids) VALUES ($1, $2, $3) ON CONFLICT (owner, name) DO NOTHING RETURNING *',
          [owner, name, [...new Set(ids)]],
        )
      ).rows[0] ?? null,
  );
}

export type UpdateCampaignList = { rename?: string; add: string[]; remove: string[]; maxIds: number };

/**
 * Renames a list and/or adds and removes ids, in one statement (ids kept unique, in insertion order).
 * @returns the list, 'missing', 'conflict' (the new name is taken) or 'too-large' (over maxIds).
 */
export async function updateCampaignList(
  db: PgPool,
  owner: string,
  name: string,
  u: UpdateCampaignList,
): Promise<CampaignListRow | 'missing' | 'conflict' | 'too-large'> {
  return withTransaction(db, async (tx) => {
    const current = (
      await tx.query<CampaignListRow>('SELECT * FROM campaign_lists WHERE owner = $1 AND name = $2 FOR UPDATE', [
        owner,
        name,
      ])
    ).rows[0];
    if (!current) return 'missing';
    const removed = new Set(u.remove);
    const ids = [...new Set([...current.campaign_ids, ...u.add])].filter((id) => !removed.has(id));
    if (ids.length > u.maxIds) return 'too-large';
    if (
      u.rename &&
      u.rename !== name &&
      (await tx.query('SELECT 1 FROM campaign_lists WHERE owner = $1 AND name = $2', [owner, u.rename])).rowCount
    )
      return 'conflict';
    return (
      await tx.query<CampaignListRow>(
        'UPDATE campaign_lists SET name = $3, campaign_ids = $4, updated_at = now() WHERE owner = $1 AND name = $2 RETURNING *',
        [owner, name, u.rename ?? name, ids],
      )
    ).rows[0]!;
  });
}

export async function deleteCampaignList(db: PgPool, owner: string, name: string): Promise<boolean> {
  return withTransaction(
    db,
    async (tx) =>
      ((await tx.query('DELETE FROM campaign_lists WHERE owner = $1 AND name = $2', [owner, name])).rowCount ?? 0) > 0,
  );
}
