-- Up Migration
-- Events that are decided by time or by thresholds rather than by one chain log (#32): what was
-- last announced, so each change is announced once.

-- The live root of each chain as announced (`root.live` and its `rewards.changed` events). The
-- latest row per chain is the current one; a reorg removing a root's TreeUpdated block deletes its
-- row (indexer/store/rollback.ts), so the rule announces again from the row before.
CREATE TABLE live_root_announcements (
  chain_id int NOT NULL,
  root text NOT NULL,
  seq bigint NOT NULL,
  block_number bigint NOT NULL,
  announced_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, announced_at, root)
);
CREATE INDEX live_root_announcements_chain_block ON live_root_announcements (chain_id, block_number);

-- The leaves that differ between two trees of a chain are the versions opened or closed between
-- their sequence numbers: two range reads instead of a pass over every open version.
CREATE INDEX reward_leaf_versions_since_idx ON reward_leaf_versions (chain_id, since_seq);
CREATE INDEX reward_leaf_versions_until_idx ON reward_leaf_versions (chain_id, until_seq) WHERE until_seq IS NOT NULL;

-- The figures an `opportunity.changed` event last announced (status, tvl, apr, dailyRewards): the
-- next one is announced when the status changes or a figure moves beyond the threshold from these,
-- so a slow drift is announced too.
ALTER TABLE opportunity_metrics ADD COLUMN announced jsonb;
-- The phase a campaign's events last announced (`campaign.ended` once, when it becomes PAST).
ALTER TABLE campaign_metrics ADD COLUMN announced_phase text;
-- What exists now counts as announced: the log starts from here, not with a flood of old changes.
UPDATE campaign_metrics SET announced_phase = status;
UPDATE opportunity_metrics SET announced = jsonb_build_object('tvl', tvl, 'apr', apr, 'dailyRewards', daily_rewards,
  'status', CASE WHEN live_campaigns > 0 THEN 'LIVE' ELSE NULL END);
