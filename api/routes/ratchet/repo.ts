import type { PgPool } from '../../../internal/pg.js';

/** Mean TVL of an opportunity over [from, to) from its history snapshots; null without snapshots. */
export async function meanTvl(db: PgPool, opportunityId: string, from: number, to: number): Promise<number | null> {
  const { rows } = await db.query<{ mean: number | null }>(
    'SELECT avg(tvl)::float8 AS mean FROM opportunity_snapshots WHERE opportunity_id = $1 AND ts >= to_timestamp($2) AND ts < to_timestamp($3)',
    [opportunityId, from, to],
  );
  return rows[0]?.mean ?? null;
}

/** The current configuration of a campaign needed by the ratchet. */
export async function loadRatchetCampaign(db: PgPool, id: string): Promise<{ id: string; opportunity_id: string; start_timestamp: string; params: Record<string, unknown> } | null> {
  const { rows } = await db.query<{ id: string; opportunity_id: string; start_timestamp: string; params: Record<string, unknown> }>(
    'SELECT id, opportunity_id, start_timestamp::text, params FROM campaigns_current WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function opportunityExists(db: PgPool, id: string): Promise<boolean> {
  return ((await db.query('SELECT 1 FROM opportunities WHERE id = $1', [id])).rowCount ?? 0) > 0;
}
