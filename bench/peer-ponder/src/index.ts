import { ponder } from 'ponder:registry';
import { campaign } from 'ponder:schema';

/** handleNewCampaign: the Ponder equivalent of our campaigns job's insert (one row per campaign). */
ponder.on('DistributionCreator:NewCampaign', async ({ event, context }) => {
  const c = event.args.campaign;
  await context.db.insert(campaign).values({
    id: c.campaignId,
    creator: c.creator,
    rewardToken: c.rewardToken,
    amount: c.amount,
    campaignType: c.campaignType,
    startTimestamp: c.startTimestamp,
    duration: c.duration,
    campaignData: c.campaignData,
    blockNumber: event.block.number,
    txHash: event.transaction.hash,
    logIndex: event.log.logIndex,
    createdAt: event.block.timestamp,
  });
});
