import { expect } from 'chai';
import { isStale, toServedPrice } from '../../../domain/prices.js';

const now = new Date('2026-11-21T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('domain/prices', () => {
  describe('isStale', () => {
    it('is fresh up to and including maxAgeSeconds', () => {
      expect(isStale({ updatedAt: now, now, maxAgeSeconds: 3600 })).to.equal(false);
      expect(isStale({ updatedAt: ago(3599), now, maxAgeSeconds: 3600 })).to.equal(false);
      expect(isStale({ updatedAt: ago(3600), now, maxAgeSeconds: 3600 })).to.equal(false);
    });

    it('is stale one millisecond past maxAgeSeconds', () => {
      expect(isStale({ updatedAt: new Date(ago(3600).getTime() - 1), now, maxAgeSeconds: 3600 })).to.equal(true);
      expect(isStale({ updatedAt: ago(2 * 86_400), now, maxAgeSeconds: 3600 })).to.equal(true);
    });

    it('treats a price stamped in the future (clock skew) as fresh', () => {
      expect(isStale({ updatedAt: ago(-120), now, maxAgeSeconds: 60 })).to.equal(false);
    });
  });

  describe('toServedPrice', () => {
    it('serves a fresh price as is', () => {
      expect(
        toServedPrice({ price: 2.5, updatedAt: 1_700_000_000, priceSource: 'ONCHAIN_CALL', stale: false }),
      ).to.deep.equal({ price: 2.5, updatedAt: 1_700_000_000, priceSource: 'ONCHAIN_CALL' });
    });

    it('serves a stale price as null, keeping its time and source', () => {
      expect(
        toServedPrice({ price: 2.5, updatedAt: 1_700_000_000, priceSource: 'DEFILLAMA', stale: true }),
      ).to.deep.equal({ price: null, updatedAt: 1_700_000_000, priceSource: 'DEFILLAMA' });
    });

    it('serves a token never priced as all null', () => {
      expect(toServedPrice(undefined)).to.deep.equal({ price: null, updatedAt: null, priceSource: null });
    });
  });
});
