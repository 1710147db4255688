import { expect } from 'chai';
import { parseCreatedBound, splitList, toListParams } from '../../../../../api/reads/campaigns/params.js';

describe('api/routes/campaigns/params', () => {
  describe('parseCreatedBound', () => {
    const APRIL = '2024-04-01T00:00:00.000Z';
    for (const v of ['2024-04-01', '2024-04-01T00:00:00Z', '1711929600', '1711929600000', new Date(APRIL).toString()]) {
      it(`reads ${v} as ${APRIL}`, () => expect(parseCreatedBound(v)).to.equal(APRIL));
    }
    for (const v of [undefined, '', 'null'])
      it(`reads ${String(v)} as no bound`, () => expect(parseCreatedBound(v)).to.equal(null));
    it('rejects garbage', () => expect(parseCreatedBound('soon')).to.equal(undefined));
    it('rejects milliseconds past the JavaScript date range instead of throwing', () =>
      expect(parseCreatedBound('9999999999999999')).to.equal(undefined));
  });

  describe('splitList', () => {
    it('splits repeated keys and comma lists, de-duplicated', () =>
      expect(splitList(['a,b', 'b', ' c '])).to.deep.equal(['a', 'b', 'c']));
  });

  describe('toListParams', () => {
    const base = { page: 0, items: 20 };
    it('gives type priority over types and resolves names to numbers', () => {
      const r = toListParams({ ...base, type: 'clamm', types: ['ERC20'] });
      expect('params' in r && r.params.campaignTypes).to.deep.equal([2]);
    });
    it('gives campaignId priority over campaignIds, lower-cased', () => {
      const r = toListParams({ ...base, campaignId: '0xAB', campaignIds: ['0x01'] });
      expect('params' in r && r.params.campaignIds).to.deep.equal(['0xab']);
    });
    it('gives opportunityId priority over opportunityIds', () => {
      const r = toListParams({ ...base, opportunityId: '1', opportunityIds: ['2,3'] });
      expect('params' in r && r.params.opportunityIds).to.deep.equal(['1']);
    });
    it('requires listOwner with campaignLists and names bad created bounds', () => {
      expect(toListParams({ ...base, campaignLists: 'a', createdAfter: 'x' })).to.deep.equal({
        errors: [
          { field: 'createdAfter', message: 'must be a date, a date-time string, a Unix timestamp or null' },
          { field: 'listOwner', message: 'is required when campaignLists is set' },
        ],
      });
    });
  });
});
