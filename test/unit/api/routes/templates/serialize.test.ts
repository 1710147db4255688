import { expect } from 'chai';
import { filterTemplates, serializeTemplate } from '../../../../../api/reads/templates/serialize.js';
import { TEMPLATES } from '../../../../../domain/templates.js';

const q = { page: 0, items: 20 };

describe('api/routes/templates/serialize', () => {
  it('filters by protocolId, search and action', () => {
    expect(filterTemplates(TEMPLATES, { ...q, protocolId: 'ajna' }).map((t) => t.id)).to.deep.equal(['ajna-borrow']);
    expect(filterTemplates(TEMPLATES, { ...q, search: 'holders' }).map((t) => t.id)).to.deep.equal(['erc20-hold']);
    expect(filterTemplates(TEMPLATES, { ...q, action: ['POOL'] }).map((t) => t.id)).to.deep.equal(['clamm-pool']);
    expect(filterTemplates(TEMPLATES, { ...q, action: ['SHORT'] })).to.deep.equal([]);
  });

  it('serializes optional fields only when set', () => {
    const hold = serializeTemplate(TEMPLATES[0]!);
    expect(hold).not.to.have.any.keys('protocolId', 'protocol', 'icon');
    expect(serializeTemplate(TEMPLATES[2]!)).to.deep.include({ protocolId: 'morpho', action: 'LEND' });
  });
});
