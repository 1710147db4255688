import { onchainTable } from 'ponder';

/** One row per NewCampaign: the fields of our `campaigns` row that come from the log and its block. */
export const campaign = onchainTable('campaign', (t) => ({
  id: t.hex().primaryKey(),
  creator: t.hex().notNull(),
  rewardToken: t.hex().notNull(),
  amount: t.bigint().notNull(),
  campaignType: t.integer().notNull(),
  startTimestamp: t.integer().notNull(),
  duration: t.integer().notNull(),
  campaignData: t.hex().notNull(),
  blockNumber: t.bigint().notNull(),
  txHash: t.hex().notNull(),
  logIndex: t.integer().notNull(),
  createdAt: t.bigint().notNull(),
}));
