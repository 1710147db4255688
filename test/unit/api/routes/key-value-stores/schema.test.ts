import { expect } from 'chai';
import { entryProblem, STORE_TYPES, type StoreType } from '../../../../../api/routes/key-value-stores/schema.js';

const WALLET = `0x${'ab'.repeat(20)}`;
const CAMPAIGN = `0x${'cd'.repeat(32)}`;

/** One accepted and several refused values per store type (the value is a JSON-encoded string). */
const CASES: Record<StoreType, { ok: unknown[]; bad: unknown[] }> = {
  WHITELIST: { ok: [{}, { label: 'vip', expiresAt: 1 }], bad: [{ label: 1 }, { other: true }, { expiresAt: -1 }] },
  BLACKLIST: { ok: [{}, { reason: 'sybil' }], bad: [{ reason: 'x'.repeat(257) }, { label: 'x' }] },
  BOOST: {
    ok: [{ multiplier: 1.5 }, { multiplier: 100, expiresAt: 2 }],
    bad: [{}, { multiplier: 0 }, { multiplier: 100.1 }, { multiplier: '2' }],
  },
  REFERRER: { ok: [{ referrer: WALLET }], bad: [{}, { referrer: CAMPAIGN }, { referrer: 'alice' }] },
  FORWARDER: {
    ok: [{ recipient: WALLET }, { recipient: WALLET, sharePercent: 50 }],
    bad: [{}, { recipient: WALLET, sharePercent: 0 }, { recipient: WALLET, sharePercent: 101 }],
  },
  APR: { ok: [{ apr: 0 }, { apr: 12.5, until: 3 }], bad: [{}, { apr: -1 }, { apr: '5' }] },
};

describe('key-value entry values by store type', () => {
  for (const type of STORE_TYPES) {
    const address = type === 'APR' ? CAMPAIGN : WALLET;
    it(`${type}: accepts its shape and refuses others, naming the value`, () => {
      for (const value of CASES[type].ok)
        expect(entryProblem(type, { address, value: JSON.stringify(value) }), JSON.stringify(value)).to.equal(null);
      for (const value of CASES[type].bad)
        expect(entryProblem(type, { address, value: JSON.stringify(value) })?.field, JSON.stringify(value)).to.equal(
          'value',
        );
      for (const value of ['[]', 'null', '"x"', '1', '{'])
        expect(entryProblem(type, { address, value })?.field, value).to.equal('value');
    });
  }

  it('takes only campaign ids in APR stores and both address sizes elsewhere', () => {
    expect(entryProblem('APR', { address: WALLET, value: '{"apr":1}' })?.field).to.equal('address');
    expect(entryProblem('WHITELIST', { address: CAMPAIGN, value: '{}' })).to.equal(null);
  });
});
