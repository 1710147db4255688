/**
 * Fields of a GraphQL answer's `data`: each key once per object (null values included), list items
 * counted one by one. What the cost rule charges a selection that resolves exactly this answer.
 */
export function responseFields(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + responseFields(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.values(value).reduce((n: number, child) => n + 1 + responseFields(child), 0);
}
