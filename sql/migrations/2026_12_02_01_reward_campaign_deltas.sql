-- Up Migration
-- What each tree changed of a campaign's total in a token (issue #33: GET /v4/rewards/total/distributed
-- at scale). A row of reward_campaign_totals (2026_11_30_07_reward_totals.sql) holds the total from
-- its seq on; its delta here is that total minus the key's previous row (rows whose total did not
-- move are left out). What the live roots distributed between two counted roots is then the plain
-- sum of the deltas of seq in (previous root's tree, root's tree], index-only: the sum telescopes
-- whichever roots are revoked or still pending (the read picks the counted roots), so no row ever
-- needs rewriting. indexer/store/rewardTotals.ts writes a tree's rows with its totals.
CREATE TABLE reward_campaign_deltas (
  chain_id integer NOT NULL,
  seq bigint NOT NULL,
  campaign_id text NOT NULL,
  token text NOT NULL,
  delta numeric(78, 0) NOT NULL,
  PRIMARY KEY (chain_id, seq, campaign_id, token) INCLUDE (delta)
);

-- Trees stored before: each totals row minus the previous row of its key.
INSERT INTO reward_campaign_deltas (chain_id, seq, campaign_id, token, delta)
SELECT chain_id, seq, campaign_id, token, delta FROM (
  SELECT chain_id, seq, campaign_id, token,
    amount - coalesce(lag(amount) OVER (PARTITION BY chain_id, campaign_id, token ORDER BY seq), 0) AS delta
  FROM reward_campaign_totals
) d WHERE delta <> 0;
