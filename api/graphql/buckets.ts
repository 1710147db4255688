/** One figure of a count or total: its creation/distribution month and its key (chain, type, protocol) when grouped. */
export type Bucket = { month: string | null; key: string | null; value: number };

type RestFigure = number | Record<string, number | Record<string, number>>;

/**
 * Pure: a REST count or total body (GET /v4/campaigns/count*, /v4/rewards/total/distributed*) as
 * buckets, in the body's order: a bare number is one bucket, `{ key: n }` one per key (per month
 * with `grain` and no grouping), `{ month: { key: n } }` one per month and key. GraphQL answers a
 * list of typed buckets where REST answers objects keyed by data.
 * @param grouped whether the body is grouped by a key (`by`); with `grain`, a bare 0 means no month
 *   had a figure (the distributed totals answer 0 then) and is no bucket.
 */
export function toBuckets(body: RestFigure, grouped: boolean, grain: boolean): Bucket[] {
  if (typeof body === 'number') return grain && body === 0 ? [] : [{ month: null, key: null, value: body }];
  return Object.entries(body).flatMap(([outer, v]): Bucket[] =>
    typeof v === 'number'
      ? [grain && !grouped ? { month: outer, key: null, value: v } : { month: null, key: outer, value: v }]
      : Object.entries(v).map(([key, value]) => ({ month: outer, key, value })),
  );
}
