import type { PgClient } from '../../internal/pg.js';
import type { CampaignPhase } from '../transform/computeMetrics.js';
import type { AnnouncedFigures } from '../transform/figureEvents.js';

/**
 * Sets each campaign's announced phase to its current one (rows the metrics upsert just wrote).
 * @returns the campaigns whose phase differs from the one announced before, with that one.
 */
export async function recordCampaignPhases(
  client: PgClient,
  phases: readonly { id: string; phase: CampaignPhase }[],
): Promise<{ id: string; previousPhase: CampaignPhase | null; phase: CampaignPhase }[]> {
  if (!phases.length) return [];
  const { rows } = await client.query<{ id: string; previous: CampaignPhase | null; phase: CampaignPhase }>(
    // Every CTE reads the snapshot from before the UPDATE: `old` holds the phases announced until now.
    `WITH input AS (SELECT * FROM unnest($1::text[], $2::text[]) AS i(id, phase)),
     old AS (SELECT m.campaign_db_id, m.announced_phase FROM campaign_metrics m JOIN input i ON i.id = m.campaign_db_id)
     UPDATE campaign_metrics m SET announced_phase = i.phase
     FROM input i JOIN old o ON o.campaign_db_id = i.id
     WHERE m.campaign_db_id = i.id AND o.announced_phase IS DISTINCT FROM i.phase
     RETURNING m.campaign_db_id AS id, o.announced_phase AS previous, i.phase`,
    [phases.map((p) => p.id), phases.map((p) => p.phase)],
  );
  return rows.map((r) => ({ id: r.id, previousPhase: r.previous, phase: r.phase }));
}

/** The figures last announced for these opportunities (absent: never announced). */
export async function loadAnnouncedFigures(
  client: PgClient,
  opportunityIds: readonly string[],
): Promise<Map<string, AnnouncedFigures>> {
  if (!opportunityIds.length) return new Map();
  const { rows } = await client.query<{ id: string; announced: AnnouncedFigures }>(
    'SELECT opportunity_id AS id, announced FROM opportunity_metrics WHERE opportunity_id = ANY($1::text[]) AND announced IS NOT NULL',
    [opportunityIds],
  );
  return new Map(rows.map((r) => [r.id, r.announced]));
}

/** Remembers what was announced (or, for a status learnt silently, adopted). */
export async function saveAnnouncedFigures(
  client: PgClient,
  announced: readonly { opportunityId: string; figures: AnnouncedFigures }[],
): Promise<void> {
  if (!announced.length) return;
  await client.query(
    `UPDATE opportunity_metrics m SET announced = i.figures
     FROM unnest($1::text[], $2::jsonb[]) AS i(id, figures) WHERE m.opportunity_id = i.id`,
    [announced.map((a) => a.opportunityId), announced.map((a) => JSON.stringify(a.figures))],
  );
}
