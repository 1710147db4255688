import { expect } from 'chai';
import {
  chainKeyOf,
  coinKey,
  isRetryablePriceApiError,
  isRetryableStatus,
  parseCoinsResponse,
  PriceApiError,
} from '../../../../../indexer/fetch/prices/httpPriceSource.js';

const A = 'chain-31337:0x5fbdb2315678afecb367f032d93f642f64180aa3';
const B = 'chain-31337:0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';

describe('indexer/fetch/prices/httpPriceSource', () => {
  describe('parseCoinsResponse', () => {
    it('reads price and timestamp (seconds) of each requested coin', () => {
      const { prices, skipped } = parseCoinsResponse(
        { coins: { [A]: { price: 2.5, symbol: 'RWD', decimals: 18, timestamp: 1_700_000_000, confidence: 0.99 } } },
        [A],
      );
      expect(skipped).to.deep.equal([]);
      expect(prices.get(A)).to.deep.equal({ price: 2.5, updatedAt: new Date(1_700_000_000_000) });
    });

    it('matches coins whatever the case of the address in the answer', () => {
      const { prices } = parseCoinsResponse(
        { coins: { [A.replace('0x5fbdb', '0x5FbDB')]: { price: 1, timestamp: 1 } } },
        [A],
      );
      expect(prices.get(A)?.price).to.equal(1);
    });

    it('skips a requested coin missing from the answer, and ignores coins not requested', () => {
      const { prices, skipped } = parseCoinsResponse({ coins: { 'chain-1:0xother': { price: 3, timestamp: 1 } } }, [A]);
      expect(prices.size).to.equal(0);
      expect(skipped).to.deep.equal([{ coin: A, reason: 'missing' }]);
    });

    for (const [label, price] of [
      ['a string', '2.5'],
      ['zero', 0],
      ['a negative number', -1],
      ['NaN', Number.NaN],
      ['Infinity', Infinity],
      ['null', null],
    ] as const) {
      it(`skips a coin whose price is ${label}`, () => {
        const { prices, skipped } = parseCoinsResponse(
          { coins: { [A]: { price, timestamp: 1_700_000_000 }, [B]: { price: 1, timestamp: 1_700_000_000 } } },
          [A, B],
        );
        expect([...prices.keys()]).to.deep.equal([B]);
        expect(skipped).to.deep.equal([{ coin: A, reason: 'price is not a positive number' }]);
      });
    }

    for (const [label, timestamp] of [
      ['missing', undefined],
      ['a string', '1700000000'],
      ['zero', 0],
    ] as const) {
      it(`skips a coin whose timestamp is ${label} (its age could not be judged)`, () => {
        const { prices, skipped } = parseCoinsResponse({ coins: { [A]: { price: 1, timestamp } } }, [A]);
        expect(prices.size).to.equal(0);
        expect(skipped[0]?.reason).to.equal('timestamp is not a positive number');
      });
    }

    it('skips an entry that is not an object', () => {
      expect(parseCoinsResponse({ coins: { [A]: 2.5 } }, [A]).skipped).to.deep.equal([{ coin: A, reason: 'missing' }]);
    });

    for (const body of [null, [], {}, { coins: [] }, { coins: 'x' }]) {
      it(`throws a fatal PriceApiError for a body without a coins object: ${JSON.stringify(body)}`, () => {
        let error: unknown;
        try {
          parseCoinsResponse(body, [A]);
        } catch (e) {
          error = e;
        }
        expect(error).to.be.instanceOf(PriceApiError).with.property('retryable', false);
      });
    }
  });

  describe('isRetryableStatus', () => {
    it('retries 429 and every 5xx', () => {
      for (const status of [429, 500, 502, 503, 504]) expect(isRetryableStatus(status), String(status)).to.equal(true);
    });
    it('does not retry other 4xx', () => {
      for (const status of [400, 401, 403, 404, 410, 422])
        expect(isRetryableStatus(status), String(status)).to.equal(false);
    });
  });

  describe('isRetryablePriceApiError', () => {
    it('follows the retryable flag of a PriceApiError', () => {
      expect(isRetryablePriceApiError(new PriceApiError('x', { status: 503, retryable: true }))).to.equal(true);
      expect(isRetryablePriceApiError(new PriceApiError('x', { status: 404, retryable: false }))).to.equal(false);
    });

    it('retries our request timeout (AbortSignal.timeout) but not the job being aborted', () => {
      expect(isRetryablePriceApiError(new DOMException('timed out', 'TimeoutError'))).to.equal(true);
      expect(isRetryablePriceApiError(new DOMException('aborted', 'AbortError'))).to.equal(false);
    });

    it('retries network failures (fetch reports them as TypeError)', () => {
      expect(
        isRetryablePriceApiError(
          new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:9') }),
        ),
      ).to.equal(true);
    });

    it('does not retry anything else', () => {
      expect(isRetryablePriceApiError(new SyntaxError('Unexpected token'))).to.equal(false);
      expect(isRetryablePriceApiError(new Error('boom'))).to.equal(false);
      expect(isRetryablePriceApiError('boom')).to.equal(false);
    });
  });

  describe('chainKeyOf / coinKey', () => {
    it('uses the chain priceApiChain when configured, else chain-<id>', () => {
      const chains = [{ id: 1, priceApiChain: 'ethereum' }, { id: 31337 }];
      expect(chainKeyOf(1, chains)).to.equal('ethereum');
      expect(chainKeyOf(31337, chains)).to.equal('chain-31337');
      expect(chainKeyOf(5, chains)).to.equal('chain-5');
    });

    it('joins chain key and address with a colon, lower-cased', () => {
      expect(coinKey('ethereum', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48')).to.equal(
        'ethereum:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      );
    });
  });
});
