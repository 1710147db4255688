import type { Queryable } from '../../internal/pg.js';

export type PageWithTotalsSql = {
  /** `WITH …` defining the set (and what it needs). */
  ctes: string;
  /**
   * The page's SELECT, ORDER BY, LIMIT and OFFSET included, numbering its rows `page_row` in the
   * same order (`row_number() OVER (ORDER BY …) AS page_row … ORDER BY page_row`).
   */
  page: string;
  /** A one-row SELECT of aggregates over the whole set, its columns named apart from the page's. */
  totals: string;
};

/**
 * One page of a set and aggregates over the whole set (its count, sums) in one statement, so the
 * set is computed once instead of once per query; a page past the end still brings the totals.
 * @returns the page's rows in order, and the totals.
 */
export async function queryPageWithTotals<P extends object, T extends object>(
  pg: Queryable,
  sql: PageWithTotalsSql,
  values: unknown[],
): Promise<{ rows: P[]; totals: T }> {
  const { rows } = await pg.query<P & T & { page_row: string | null }>(
    `${sql.ctes},
     page AS (${sql.page})
     SELECT totals.*, page.* FROM (${sql.totals}) AS totals LEFT JOIN page ON true ORDER BY page.page_row`,
    values,
  );
  const pageRows = rows.filter((r) => r.page_row !== null).map(({ page_row: _, ...row }) => row as unknown as P);
  return { rows: pageRows, totals: rows[0] as T };
}
