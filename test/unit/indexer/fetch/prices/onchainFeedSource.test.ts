import { expect } from 'chai';
import { decodeFeedRound } from '../../../../../indexer/fetch/prices/onchainFeedSource.js';

describe('indexer/fetch/prices/onchainFeedSource', () => {
  describe('decodeFeedRound', () => {
    it('scales the answer by the feed decimals and keeps the round time', () => {
      expect(decodeFeedRound({ answer: 250_000_000n, decimals: 8, updatedAt: 1_700_000_000n })).to.deep.equal({
        ok: true,
        price: 2.5,
        updatedAt: new Date(1_700_000_000_000),
      });
      expect(decodeFeedRound({ answer: 1_000_000n, decimals: 8, updatedAt: 1n })).to.include({ ok: true, price: 0.01 });
      expect(decodeFeedRound({ answer: 10n ** 18n, decimals: 18, updatedAt: 1n })).to.include({ ok: true, price: 1 });
    });

    it('rejects a zero or negative answer', () => {
      expect(decodeFeedRound({ answer: 0n, decimals: 8, updatedAt: 1n })).to.deep.equal({
        ok: false,
        reason: 'non-positive answer 0',
      });
      expect(decodeFeedRound({ answer: -5n, decimals: 8, updatedAt: 1n })).to.deep.equal({
        ok: false,
        reason: 'non-positive answer -5',
      });
    });

    it('rejects a round that was never updated', () => {
      expect(decodeFeedRound({ answer: 1n, decimals: 8, updatedAt: 0n })).to.deep.equal({
        ok: false,
        reason: 'round never updated',
      });
    });
  });
});
