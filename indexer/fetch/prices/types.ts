/** A token to price: its internal id and where it lives (address lower-cased). */
export type PriceToken = { id: string; chainId: number; address: string };

/** One price as a source reported it: USD per whole token, at the source's own time. */
export type PriceQuote = {
  price: number;
  /** When the source says the price was set (feed round `updatedAt`, API `timestamp`), not when we read it. */
  updatedAt: Date;
  /** Name of the source that produced it, recorded as `priceSource`. */
  source: string;
};

export type FetchPricesParams = { tokens: readonly PriceToken[]; signal?: AbortSignal };

/** token id → quote; a token the source cannot price is absent. */
export type PriceMap = Map<string, PriceQuote>;

/**
 * A pluggable price source. `fetchPrices` returns what it could price and leaves the rest out;
 * it throws only when the source itself is unusable after its bounded retries (RPC or API down,
 * a fatal 4xx), so the job fails loudly instead of silently serving fewer prices.
 */
export type PriceSource = {
  name: string;
  fetchPrices(params: FetchPricesParams): Promise<PriceMap>;
};
