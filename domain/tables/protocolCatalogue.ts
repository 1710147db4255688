import type { Queryable } from '../../internal/pg.js';
import { type Protocol, type ProtocolCatalogue, protocolCatalogue } from '../protocols.js';
import { loadProtocolCurations } from './protocolOverrides.js';

/** Columns of a protocols row, in the order of Protocol. */
export const PROTOCOL_COLUMNS = 'id, name, icon, description, url, tags';

/** The protocols the back office added (table protocols; a few rows: read whole), by id. */
export async function loadAddedProtocols(db: Queryable): Promise<Protocol[]> {
  const { rows } = await db.query<Protocol>(`SELECT ${PROTOCOL_COLUMNS} FROM protocols ORDER BY id`);
  return rows;
}

/** Every protocol served (domain/protocols.ts protocolCatalogue). Tables protocol_overrides, protocols. */
export async function loadProtocolCatalogue(db: Queryable): Promise<ProtocolCatalogue> {
  // One after the other: `db` may be a transaction's client, which runs one query at a time.
  const curations = await loadProtocolCurations(db);
  return protocolCatalogue(curations, await loadAddedProtocols(db));
}
