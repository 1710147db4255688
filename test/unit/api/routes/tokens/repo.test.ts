import { expect } from 'chai';
import { buildTokenListSql, likePrefix } from '../../../../../api/reads/tokens/repo.js';
import type { ListTokensQuery } from '../../../../../api/reads/tokens/schema.js';

const base: ListTokensQuery = { page: 0, items: 20, test: false };
const now = new Date('2026-01-01T00:00:00Z');

describe('api/routes/tokens/repo buildTokenListSql', () => {
  it('hides test tokens by default and pages with LIMIT/OFFSET', () => {
    const q = buildTokenListSql({ ...base, page: 2, items: 5 }, now, 3600);
    expect(q.text).to.match(/WHERE NOT t\.is_test/);
    expect(q.values).to.deep.equal([5, 10]);
  });

  it('keeps test tokens with test=true or explicit ids', () => {
    expect(buildTokenListSql({ ...base, test: true }, now, 3600).text).not.to.contain('NOT t.is_test');
    const byId = buildTokenListSql({ ...base, id: ['1', '2'] }, now, 3600);
    expect(byId.text).not.to.contain('NOT t.is_test');
    expect(byId.values[0]).to.deep.equal(['1', '2']);
  });

  it('lower-cases address and symbol, and escapes LIKE wildcards in search (anywhere in symbol and name, prefix of the address)', () => {
    const q = buildTokenListSql({ ...base, address: '0xABCD', symbol: 'RwD', search: '50%_' }, now, 3600);
    expect(q.values.slice(0, 4)).to.deep.equal(['rwd', '0xabcd', '%50\\%\\_%', '50\\%\\_%']);
    expect(likePrefix('a\\b')).to.equal('a\\\\b%');
  });

  it('judges missingPrice by freshness at now − maxAge', () => {
    const q = buildTokenListSql({ ...base, missingPrice: true }, now, 3600);
    expect(q.text).to.match(/NOT EXISTS \(SELECT 1 FROM token_prices/);
    expect(q.values[0]).to.deep.equal(new Date('2025-12-31T23:00:00Z'));
    expect(buildTokenListSql({ ...base, missingPrice: false }, now, 3600).text).not.to.match(/NOT EXISTS/);
  });

  it('filters icons both ways', () => {
    expect(buildTokenListSql({ ...base, missingIcons: true }, now, 0).text).to.contain("t.icon = ''");
    expect(buildTokenListSql({ ...base, missingIcons: false }, now, 0).text).to.contain("t.icon <> ''");
  });
});
