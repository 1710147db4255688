import type { Queryable } from '../../internal/pg.js';
import type { ProtocolCuration, ProtocolCurations } from '../protocols.js';

type OverrideRow = {
  id: string;
  name: string | null;
  icon: string | null;
  description: string | null;
  url: string | null;
  tags: string[] | null;
};

/** Pure: a protocol_overrides row → the fields it sets (null columns set nothing). */
export function curationOf(row: OverrideRow): ProtocolCuration {
  const curation: ProtocolCuration = {};
  if (row.name !== null) curation.name = row.name;
  if (row.icon !== null) curation.icon = row.icon;
  if (row.description !== null) curation.description = row.description;
  if (row.url !== null) curation.url = row.url;
  if (row.tags !== null) curation.tags = row.tags;
  return curation;
}

/** Every protocol's back-office corrections, by id (a few rows: read whole). Table protocol_overrides. */
export async function loadProtocolCurations(db: Queryable): Promise<ProtocolCurations> {
  const { rows } = await db.query<OverrideRow>('SELECT id, name, icon, description, url, tags FROM protocol_overrides');
  return new Map(rows.map((r) => [r.id, curationOf(r)]));
}
