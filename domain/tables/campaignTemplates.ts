import type { Queryable } from '../../internal/pg.js';
import type { OpportunityAction } from '../campaignTypes.js';
import type { JsonSchema } from '../campaignData/schemas.js';
import type { ProtocolCatalogue } from '../protocols.js';
import { TEMPLATES, type Template } from '../templates.js';
import { loadProtocolCatalogue } from './protocolCatalogue.js';

/** A campaign_templates row: a template an operator wrote (POST /v4/templates). */
export type TemplateRow = {
  id: string;
  name: string;
  icon: string | null;
  description: string;
  base_config: Record<string, unknown>;
  completion_config: Record<string, JsonSchema>;
  protocol_id: string | null;
  action: OpportunityAction;
};

export const TEMPLATE_COLUMNS = 'id, name, icon, description, base_config, completion_config, protocol_id, action';

/** Pure: whether `id` is a built-in template's (domain/templates.ts: served from code, not writable). */
export function isBuiltInTemplate(id: string): boolean {
  return TEMPLATES.some((t) => t.id === id);
}

/** Pure: a template with its protocol as the catalogue serves it (dropped when the catalogue has no such id). */
function withProtocol(t: Omit<Template, 'protocol'>, catalogue: ProtocolCatalogue): Template {
  const { protocolId, ...rest } = t;
  const protocol = protocolId ? catalogue.get(protocolId) : undefined;
  return { ...rest, ...(protocolId ? { protocolId } : {}), ...(protocol ? { protocol } : {}) };
}

/** Pure: a campaign_templates row → a template (its protocol resolved in the catalogue). */
export function templateOfRow(row: TemplateRow, catalogue: ProtocolCatalogue): Template {
  return withProtocol(
    {
      id: row.id,
      name: row.name,
      ...(row.icon ? { icon: row.icon } : {}),
      description: row.description,
      baseConfig: row.base_config,
      completionConfig: row.completion_config,
      ...(row.protocol_id ? { protocolId: row.protocol_id } : {}),
      action: row.action,
    },
    catalogue,
  );
}

/**
 * Every template served: the built-in ones (domain/templates.ts) in their order, then the operators' (table
 * campaign_templates) by creation; protocols as the catalogue serves them (corrections and added protocols included).
 * Tables campaign_templates, protocol_overrides, protocols.
 */
export async function loadTemplates(db: Queryable): Promise<Template[]> {
  const [catalogue, { rows }] = await Promise.all([
    loadProtocolCatalogue(db),
    db.query<TemplateRow>(`SELECT ${TEMPLATE_COLUMNS} FROM campaign_templates ORDER BY created_at, id`),
  ]);
  return [...TEMPLATES.map((t) => withProtocol(t, catalogue)), ...rows.map((r) => templateOfRow(r, catalogue))];
}
