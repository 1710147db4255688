import { expect } from 'chai';
import { selectPrices } from '../../../../indexer/transform/selectPrices.js';
import type { PriceMap, PriceQuote } from '../../../../indexer/fetch/prices/types.js';

const at = new Date('2026-11-21T12:00:00Z');
const quote = (price: number, source: string, updatedAt = at): PriceQuote => ({ price, updatedAt, source });
const feed: PriceMap = new Map([
  ['1', quote(2.5, 'ONCHAIN_CALL')],
  ['2', quote(1, 'ONCHAIN_CALL')],
]);
const api: PriceMap = new Map([
  ['1', quote(999, 'DEFILLAMA')],
  ['3', quote(1.23, 'DEFILLAMA')],
]);

describe('indexer/transform/selectPrices', () => {
  it('takes the first source in priority order that priced a token', () => {
    const selected = selectPrices([feed, api]);
    expect(selected.get('1')).to.deep.equal(quote(2.5, 'ONCHAIN_CALL'));
    expect(selected.get('2')).to.deep.equal(quote(1, 'ONCHAIN_CALL'));
  });

  it('falls back to a later source only for tokens the earlier ones did not price', () => {
    expect(selectPrices([feed, api]).get('3')).to.deep.equal(quote(1.23, 'DEFILLAMA'));
  });

  it('follows the order given, whatever the source', () => {
    expect(selectPrices([api, feed]).get('1')?.source).to.equal('DEFILLAMA');
  });

  it('keeps a higher-priority price even when a later source has a newer one', () => {
    const newer: PriceMap = new Map([['1', quote(3, 'DEFILLAMA', new Date(at.getTime() + 60_000))]]);
    expect(selectPrices([feed, newer]).get('1')?.price).to.equal(2.5);
  });

  it('leaves out tokens no source priced, and handles no sources', () => {
    expect([...selectPrices([feed, api]).keys()].sort()).to.deep.equal(['1', '2', '3']);
    expect(selectPrices([]).size).to.equal(0);
  });
});
