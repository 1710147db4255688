-- Up Migration
-- The reward tokens an opportunity's figures (APR, daily rewards) leave out for want of a fresh price:
-- served as `unpricedRewardTokens`, so a 0 that means "unknown" is never read as "nothing" (#31).
ALTER TABLE opportunity_metrics ADD COLUMN unpriced_reward_tokens text[] NOT NULL DEFAULT '{}';
