import type { ProtocolCatalogue } from '../../../domain/protocols.js';
import { loadProtocolCatalogue } from '../../../domain/tables/protocolCatalogue.js';
import type { Queryable } from '../../../internal/pg.js';
import { ValidationError } from '../../errors.js';

/**
 * The protocol catalogue, read once, after checking that `id` (when given) is in it: else a 400 naming `field`.
 * Writes that reference a protocol (templates' `protocolId`, an opportunity's `mainProtocolId`) reuse the catalogue.
 */
export async function requireProtocol(
  db: Queryable,
  field: string,
  id: string | null | undefined,
): Promise<ProtocolCatalogue> {
  const catalogue = await loadProtocolCatalogue(db);
  if (id && !catalogue.has(id))
    throw new ValidationError([
      { field, message: 'names no protocol (GET /v4/protocols; POST /v4/protocols adds one)' },
    ]);
  return catalogue;
}
