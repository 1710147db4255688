import type { ApiKeyRow } from './repo.js';

/** An API key as the developer routes answer it (keySchema in router.ts), with `rawKey` only when given (creation response). */
export function serializeApiKey(row: ApiKeyRow & { rawKey?: string }) {
  return {
    id: row.id,
    prefix: row.prefix,
    description: row.description,
    revokedAt: row.revokedAt ? row.revokedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    tier: row.tier,
    ...(row.rawKey ? { rawKey: row.rawKey } : {}),
  };
}

/** Rows (date, endpoint, count) in date order → `{ daily: [{ date, total, endpoints }] }`. */
export function serializeDailyUsage(rows: { date: string; endpoint: string; count: number }[]) {
  const daily: { date: string; total: number; endpoints: Record<string, number> }[] = [];
  for (const row of rows) {
    let day = daily.at(-1);
    if (day?.date !== row.date) daily.push((day = { date: row.date, total: 0, endpoints: {} }));
    day.total += row.count;
    day.endpoints[row.endpoint] = (day.endpoints[row.endpoint] ?? 0) + row.count;
  }
  return { daily };
}
