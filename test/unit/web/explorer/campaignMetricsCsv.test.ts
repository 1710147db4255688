import { expect } from 'chai';
import { campaignMetricsCsv } from '../../../../web/explorer/campaignMetricsCsv.js';

describe('web/explorer/campaignMetricsCsv', () => {
  it('writes one row per snapshot time, oldest first, empty cells where a series has no value (#44)', () => {
    const csv = campaignMetricsCsv({
      aprRecords: [
        { timestamp: '1800000600', apr: 2 },
        { timestamp: '1800000000', apr: 1.5 },
      ],
      tvlRecords: [{ timestamp: '1800000000', total: 1000 }],
      dailyRewardsRecords: [{ timestamp: '1800000600', total: 30, totalInToken: 12 }],
    });
    expect(csv.split('\n')).to.deep.equal([
      'timestamp,date,apr,tvl,dailyRewards,dailyRewardsInToken',
      '1800000000,2027-01-15T08:00:00.000Z,1.5,1000,,',
      '1800000600,2027-01-15T08:10:00.000Z,2,,30,12',
      '',
    ]);
  });
});
