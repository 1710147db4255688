import { expect } from 'chai';
import { orderTags, TAG_ORDER } from '../../../../api/openapi/tagOrder.js';

describe('api/openapi/tagOrder', () => {
  it('orders tags by what users do, the back office last, and keeps an unlisted tag before the back office', () => {
    const names = orderTags([
      'accounting',
      'webhooks',
      'zeta-new',
      'users',
      'internal',
      'campaigns',
      'opportunities',
      'rewards',
    ]).map((t) => t.name);
    expect(names).to.deep.equal([
      'opportunities',
      'campaigns',
      'rewards',
      'users',
      'webhooks',
      'zeta-new',
      'internal',
      'accounting',
    ]);
  });

  it('describes each listed tag once', () => {
    expect(new Set(TAG_ORDER.map((t) => t.name)).size).to.equal(TAG_ORDER.length);
    expect(orderTags(['rewards', 'rewards'])).to.deep.equal([
      { name: 'rewards', description: TAG_ORDER[2]!.description },
    ]);
  });
});
