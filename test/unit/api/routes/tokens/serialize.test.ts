import { expect } from 'chai';
import { serializeChainToken, serializeToken, tmpTokenId } from '../../../../../api/reads/tokens/serialize.js';
import type { TokenDbRow } from '../../../../../api/reads/tokens/repo.js';
import { toServedPrice } from '../../../../../domain/prices.js';

/** Resources › Token of the API spec, always present (underlyingTokenId and priceAlertDismissedAt only when set). */
const TOKEN_FIELDS = [
  'id',
  'name',
  'chainId',
  'address',
  'decimals',
  'symbol',
  'icon',
  'verified',
  'isNative',
  'isTest',
  'type',
  'price',
  'updatedAt',
  'priceSource',
  'displaySymbol',
  'priceAlertCount',
];

const row: TokenDbRow = {
  id: '42',
  chain_id: 31337,
  address: '0xabc0000000000000000000000000000000000001',
  name: 'Reward',
  symbol: 'RWD',
  decimals: 18,
  icon: 'i.svg',
  verified: true,
  is_native: false,
  is_test: false,
  type: 'TOKEN',
  display_symbol: null,
  underlying_token_id: null,
};

describe('api/routes/tokens/serialize', () => {
  it('names every Token field, displaySymbol falling back to the symbol', () => {
    const t = serializeToken(row, toServedPrice({ price: 2.5, updatedAt: 100, priceSource: 'feed', stale: false }));
    expect(Object.keys(t)).to.have.members(TOKEN_FIELDS);
    expect(t).to.include({
      id: '42',
      chainId: 31337,
      isNative: false,
      isTest: false,
      displaySymbol: 'RWD',
      price: 2.5,
      updatedAt: 100,
      priceSource: 'feed',
      priceAlertCount: 0,
    });
  });

  it('serves a stale price as null and an unpriced token all null', () => {
    expect(
      serializeToken(row, toServedPrice({ price: 2.5, updatedAt: 100, priceSource: 'feed', stale: true })),
    ).to.include({ price: null, updatedAt: 100, priceSource: 'feed' });
    expect(serializeToken(row, toServedPrice(undefined))).to.include({
      price: null,
      updatedAt: null,
      priceSource: null,
    });
  });

  it('adds underlyingTokenId and a custom displaySymbol only when set', () => {
    const t = serializeToken({ ...row, display_symbol: 'R', underlying_token_id: '7' }, toServedPrice(undefined));
    expect(t).to.include({ displaySymbol: 'R', underlyingTokenId: '7' });
    expect(serializeToken(row, toServedPrice(undefined))).not.to.have.property('underlyingTokenId');
  });

  it('gives a chain-read token the temporary id tmp-{chainId}-{address}', () => {
    const t = serializeChainToken({
      chainId: 1,
      address: '0xABC0000000000000000000000000000000000001',
      name: null,
      symbol: 'X',
      decimals: 6,
    });
    expect(t).to.include({
      id: 'tmp-1-0xabc0000000000000000000000000000000000001',
      address: '0xabc0000000000000000000000000000000000001',
      verified: false,
      price: null,
    });
    expect(tmpTokenId(5, '0xAB')).to.equal('tmp-5-0xab');
  });
});
