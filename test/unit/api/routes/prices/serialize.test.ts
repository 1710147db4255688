import { expect } from 'chai';
import { candlesToCsv, serializeCandle, serializePrice } from '../../../../../api/reads/prices/serialize.js';

describe('api/routes/prices/serialize', function () {
  it('serves a stale price as null, keeping its time and source', function () {
    const row = {
      token_id: '7',
      chain_id: 1,
      address: '0xaa',
      symbol: 'RWD',
      price: 2.5,
      price_source: 'ONCHAIN',
      updated_at: new Date('2026-01-01T00:00:00Z'),
    };
    const fresh = serializePrice(row, new Date('2026-01-01T00:10:00Z'), 3600);
    expect(fresh).to.deep.equal({
      tokenId: '7',
      chainId: 1,
      address: '0xaa',
      symbol: 'RWD',
      price: 2.5,
      updatedAt: 1767225600,
      source: 'ONCHAIN',
      stale: false,
    });
    expect(serializePrice(row, new Date('2026-01-01T02:00:00Z'), 3600)).to.include({ price: null, stale: true });
  });

  it('dates a candle by its start (Unix day, seconds and ISO), and quotes CSV cells that need it', function () {
    const candle = serializeCandle({
      start: 20454 * 86_400 + 3600,
      open: 1,
      close: 2,
      min: 0.5,
      max: 3,
      source: 'a,"b"',
    });
    expect(candle).to.deep.equal({
      day: 20454,
      timestamp: '1767229200',
      date: '2026-01-01T01:00:00.000Z',
      open: 1,
      close: 2,
      min: 0.5,
      max: 3,
      source: 'a,"b"',
    });
    expect(candlesToCsv([candle, { ...candle, source: null }])).to.equal(
      'day,timestamp,date,open,close,min,max,source\n20454,1767229200,2026-01-01T01:00:00.000Z,1,2,0.5,3,"a,""b"""\n20454,1767229200,2026-01-01T01:00:00.000Z,1,2,0.5,3,\n',
    );
  });
});
