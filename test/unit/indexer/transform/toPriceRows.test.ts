import { expect } from 'chai';
import { toPriceRows } from '../../../../indexer/transform/toPriceRows.js';
import type { PriceMap } from '../../../../indexer/fetch/prices/types.js';

const fetchedAt = new Date('2026-11-21T00:30:00Z');

describe('indexer/transform/toPriceRows', () => {
  const selected: PriceMap = new Map([
    ['b', { price: 1.23, updatedAt: new Date('2026-11-19T00:30:00Z'), source: 'DEFILLAMA' }],
    ['a', { price: 2.5, updatedAt: new Date('2026-11-20T23:59:59Z'), source: 'ONCHAIN_CALL' }],
  ]);

  it('builds one current-price row per token, sorted by id, with the fetch time', () => {
    expect(toPriceRows({ selected, fetchedAt, maxAgeSeconds: 3600 }).prices).to.deep.equal([
      { tokenId: 'a', price: 2.5, priceSource: 'ONCHAIN_CALL', updatedAt: new Date('2026-11-20T23:59:59Z'), fetchedAt },
      { tokenId: 'b', price: 1.23, priceSource: 'DEFILLAMA', updatedAt: new Date('2026-11-19T00:30:00Z'), fetchedAt },
    ]);
  });

  it('files history under the UTC day of the price own time, not of the fetch', () => {
    expect(
      toPriceRows({ selected, fetchedAt, maxAgeSeconds: 3600 }).history.map((h) => [h.tokenId, h.day]),
    ).to.deep.equal([
      ['a', '2026-11-20'],
      ['b', '2026-11-19'],
    ]);
  });

  it('lists the tokens already stale when fetched', () => {
    expect(toPriceRows({ selected, fetchedAt, maxAgeSeconds: 3600 }).stale).to.deep.equal(['b']);
    expect(toPriceRows({ selected, fetchedAt, maxAgeSeconds: 3 * 86_400 }).stale).to.deep.equal([]);
  });
});
