import { expect } from 'chai';
import { serializeApiKey, serializeDailyUsage } from '../../../../../api/routes/developer/serialize.js';

describe('api/routes/developer/serialize', function () {
  it('groups usage rows into days with totals and an endpoint map', function () {
    const rows = [
      { date: '2026-11-20', endpoint: 'GET /v4/chains', count: 2 },
      { date: '2026-11-20', endpoint: 'GET /v4/opportunities', count: 3 },
      { date: '2026-11-21', endpoint: 'GET /v4/chains', count: 1 },
    ];
    expect(serializeDailyUsage(rows)).to.deep.equal({
      daily: [
        { date: '2026-11-20', total: 5, endpoints: { 'GET /v4/chains': 2, 'GET /v4/opportunities': 3 } },
        { date: '2026-11-21', total: 1, endpoints: { 'GET /v4/chains': 1 } },
      ],
    });
    expect(serializeDailyUsage([])).to.deep.equal({ daily: [] });
  });

  it('names every field of the key record and shows rawKey only when given', function () {
    const row = {
      id: 'i',
      prefix: 'rk_12345678',
      description: 'd',
      tier: 1,
      createdAt: new Date('2026-11-21T00:00:00Z'),
      revokedAt: null,
    };
    expect(serializeApiKey(row)).to.deep.equal({
      id: 'i',
      prefix: 'rk_12345678',
      description: 'd',
      revokedAt: null,
      createdAt: '2026-11-21T00:00:00.000Z',
      tier: 1,
    });
    expect(serializeApiKey({ ...row, rawKey: 'rk_x' })).to.have.property('rawKey', 'rk_x');
  });
});
