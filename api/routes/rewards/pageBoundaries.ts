/** Where a row of a campaign's rewards stands in their order (amount desc, then recipient, token, reason). */
export type RewardRowKey = { amount: string; recipient: string; token: string; reason: string };

/** The end of an earlier page: its number and its last row. */
export type PageBoundary = { page: number; last: RewardRowKey };

/**
 * Ends of pages already served of a campaign's rewards in one root, so that the next page starts
 * from the end of the page before it (a keyset read, a few index rows) instead of walking every row
 * before it (OFFSET: ~250 ms at row 30,000 of a million-leaf tree). Only for reads whose rows cannot
 * change (a root's amounts never do; `hide` depends on claims, so those are not kept). The pages of
 * at most `maxQueries` queries are kept, least recently used dropped, and for each at most
 * `maxPages`; a page is found from a boundary at most `lookBack` pages before it.
 */
export type PageBoundaries = {
  /** The nearest known end of a page before `page` of the query `query`, or null. */
  before(query: string, page: number): PageBoundary | null;
  /** Records that page `page` of `query` ended at `last`. */
  remember(query: string, page: number, last: RewardRowKey): void;
};

export function createPageBoundaries({ maxQueries = 256, maxPages = 4096, lookBack = 64 } = {}): PageBoundaries {
  const queries = new Map<string, Map<number, RewardRowKey>>();
  return {
    before(query, page) {
      const pages = queries.get(query);
      if (!pages) return null;
      queries.delete(query);
      queries.set(query, pages);
      for (let p = page - 1; p >= Math.max(0, page - lookBack); p--) {
        const last = pages.get(p);
        if (last) return { page: p, last };
      }
      return null;
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
