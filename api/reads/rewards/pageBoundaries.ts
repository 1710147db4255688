/** Where a row of a campaign's rewards stands in their order (amount desc, then recipient, token, reason). */
export type RewardRowKey = { amount: string; recipient: string; token: string; reason: string };

/** The end of an earlier page: its number and its last row. */
export type PageBoundary = { page: number; last: RewardRowKey };

/**
 * Ends of pages already served of a campaign's rewards in one root, so that the next page starts
 * from the end of the page before it (a keyset read, a few index rows) instead of walking every row
 * before it (OFFSET). Only for reads whose rows cannot change (a root's amounts never do; `hide`
 * depends on claims, so those are not kept). The pages of at most `maxQueries` queries are kept,
 * least recently used dropped, and for each at most `maxPages`; a page starts from the nearest
 * boundary before it however far (a jump ahead walks only the pages in between, #30).
 */
export type PageBoundaries = {
  /** The nearest known end of a page before `page` of the query `query`, or null. */
  before(query: string, page: number): PageBoundary | null;
  /** Records that page `page` of `query` ended at `last`. */
  remember(query: string, page: number, last: RewardRowKey): void;
};

export function createPageBoundaries({ maxQueries = 256, maxPages = 4096 } = {}): PageBoundaries {
  const queries = new Map<string, Map<number, RewardRowKey>>();
  return {
    before(query, page) {
      const pages = queries.get(query);
      if (!pages) return null;
      queries.delete(query);
      queries.set(query, pages);
      // The page just before is the usual case (reading in order); else the nearest kept one (at most maxPages).
      const previous = pages.get(page - 1);
      if (previous) return { page: page - 1, last: previous };
      let nearest: PageBoundary | null = null;
      for (const [p, last] of pages) if (p < page && (!nearest || p > nearest.page)) nearest = { page: p, last };
      return nearest;
    },
    remember(query, page, last) {
      let pages = queries.get(query);
      if (pages) queries.delete(query);
      else pages = new Map();
      queries.set(query, pages);
      pages.set(page, last);
      if (pages.size > maxPages) pages.delete(pages.keys().next().value!);
      if (queries.size > maxQueries) queries.delete(queries.keys().next().value!);
    },
  };
}
