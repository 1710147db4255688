import type { Template } from '../../../domain/templates.js';
import type { ListTemplatesQuery } from './schema.js';

/** Pure: templates matching protocolId (exact), search (case-insensitive substring of name or description) and any of `action`, paged. */
export function filterTemplates(templates: readonly Template[], q: ListTemplatesQuery): Template[] {
  const needle = q.search?.toLowerCase();
  return templates
    .filter(
      (t) =>
        (q.protocolId === undefined || t.protocolId === q.protocolId) &&
        (!needle || t.name.toLowerCase().includes(needle) || t.description.toLowerCase().includes(needle)) &&
        (!q.action || q.action.includes(t.action)),
    )
    .slice(q.page * q.items, (q.page + 1) * q.items);
}

/**
 * Pure: a template → the public Template record (docs/api-behaviour.md#templates), every field named; optional ones
 * only when set.
 */
export function serializeTemplate(t: Template) {
  return {
    id: t.id,
    name: t.name,
    ...(t.icon ? { icon: t.icon } : {}),
    description: t.description,
    baseConfig: t.baseConfig,
    completionConfig: t.completionConfig,
    ...(t.protocolId ? { protocolId: t.protocolId } : {}),
    ...(t.protocol
      ? {
          protocol: {
            id: t.protocol.id,
            name: t.protocol.name,
            icon: t.protocol.icon,
            description: t.protocol.description,
            url: t.protocol.url,
            tags: [...t.protocol.tags],
          },
        }
      : {}),
    action: t.action,
  };
}
