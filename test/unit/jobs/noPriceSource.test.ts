import { expect } from 'chai';
import type { Config } from '../../../internal/config.js';
import { noPriceSource } from '../../../jobs/refreshPrices.js';

/** The prices job records a skip (not a success) only when no source at all is configured (#44). */
describe('jobs/refreshPrices noPriceSource', () => {
  const config = (apiUrl: string | undefined, feeds: Record<string, string>[]) =>
    ({
      prices: { apiUrl, apiTimeoutMs: 1000, maxAgeSeconds: 3600 },
      chains: feeds.map((priceFeeds, i) => ({ id: i + 1, priceFeeds })),
    }) as unknown as Config;

  it('names what to set when there is no price API and no chain has a feed', () => {
    expect(noPriceSource(config(undefined, [{}, {}]))).to.equal(
      'no price source configured: PRICE_API_URL is not set and no chain of CHAINS has priceFeeds',
    );
    expect(noPriceSource(config(undefined, []))).to.be.a('string');
  });

  it('is null with a price API or with one chain feed', () => {
    expect(noPriceSource(config('http://127.0.0.1:1', [{}]))).to.equal(null);
    expect(noPriceSource(config(undefined, [{}, { '0x01': '0x02' }]))).to.equal(null);
  });
});
