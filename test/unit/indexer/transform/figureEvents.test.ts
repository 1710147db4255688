import { expect } from 'chai';
import {
  changedFigures,
  statusOfPhases,
  toCampaignEndedEvents,
  toOpportunityEvents,
  type AnnouncedFigures,
} from '../../../../indexer/transform/figureEvents.js';

const at = (f: Partial<AnnouncedFigures>): AnnouncedFigures => ({
  status: 'LIVE',
  tvl: 1000,
  apr: 10,
  dailyRewards: 50,
  ...f,
});

describe('figureEvents: what an opportunity or campaign announces', () => {
  it('a figure is announced when it moves beyond the threshold of the larger value, a status when it changes', () => {
    expect(changedFigures(at({}), at({ tvl: 1049 }), 500)).to.deep.equal([]);
    expect(changedFigures(at({}), at({ tvl: 1060 }), 500)).to.deep.equal(['tvl']);
    expect(changedFigures(at({}), at({ apr: 9 }), 500)).to.deep.equal(['apr']);
    expect(changedFigures(at({ dailyRewards: 0 }), at({ dailyRewards: 0.01 }), 500)).to.deep.equal(['dailyRewards']);
    expect(changedFigures(at({}), at({ status: 'PAST' }), 500)).to.deep.equal(['status']);
    expect(changedFigures(null, at({}), 500)).to.deep.equal(['status', 'tvl', 'apr', 'dailyRewards']);
  });

  it('an unknown announced status is adopted silently; a slow drift adds up against the last announced figure', () => {
    const migrated = at({ status: null });
    const quiet = toOpportunityEvents(
      [{ opportunityId: 'o', chainId: 1, last: migrated, next: at({ status: 'PAST' }) }],
      500,
    );
    expect(quiet.events).to.deep.equal([]);
    expect(quiet.announced).to.deep.equal([{ opportunityId: 'o', figures: at({ status: 'PAST' }) }]);

    let last = at({});
    const announcedAt: number[] = [];
    for (let tvl = 1000; tvl <= 1200; tvl += 20) {
      const r = toOpportunityEvents([{ opportunityId: 'o', chainId: 1, last, next: at({ tvl }) }], 500);
      if (r.events.length) {
        announcedAt.push(tvl);
        last = r.announced[0]!.figures;
      }
    }
    expect(announcedAt).to.deep.equal([1060, 1120, 1180]);
  });

  it('an opportunity is LIVE with a live campaign, else SOON with one to come, else PAST, NONE without campaigns', () => {
    expect(statusOfPhases(['PAST', 'LIVE', 'SOON'])).to.equal('LIVE');
    expect(statusOfPhases(['PAST', 'SOON'])).to.equal('SOON');
    expect(statusOfPhases(['PAST'])).to.equal('PAST');
    expect(statusOfPhases([])).to.equal('NONE');
  });

  it('campaign.ended only for a campaign becoming PAST', () => {
    const row = { campaignDbId: 'c', campaignId: '0x1', chainId: 1, opportunityId: 'o', endTimestamp: 5 };
    const events = toCampaignEndedEvents([
      { ...row, previousPhase: 'LIVE', phase: 'PAST' },
      { ...row, campaignDbId: 'd', previousPhase: null, phase: 'PAST' },
      { ...row, campaignDbId: 'e', previousPhase: 'SOON', phase: 'LIVE' },
      { ...row, campaignDbId: 'f', previousPhase: 'PAST', phase: 'PAST' },
    ]);
    expect(events.map((e) => e.campaignDbId)).to.deep.equal(['c', 'd']);
    expect(events[0]).to.deep.include({ type: 'campaign.ended', chainId: 1, opportunityId: 'o' });
  });
});
