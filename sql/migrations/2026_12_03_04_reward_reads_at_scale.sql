-- Up Migration
-- Back-office reward reads at a million leaves (issue #30, "Every reward read at that size"): the leaves and the
-- breakdowns of a token are walked in amount order instead of being sorted whole on every request, and the
-- validity columns ride in the indexes so that skipping rows (OFFSET, counts) reads the index alone.

-- GET /v4/diffs/leaves sorted by amount (the default) or by pending (api/routes/diffs/leavesPage.ts).
CREATE INDEX reward_leaf_versions_token_amount_idx
  ON reward_leaf_versions (chain_id, token, amount DESC, recipient) INCLUDE (since_seq, until_seq);

-- GET /v4/diffs/leaf-breakdowns sorted by amount or pending, and its count (api/routes/diffs/breakdownsPage.ts).
CREATE INDEX reward_breakdown_versions_token_amount_idx
  ON reward_breakdown_versions (chain_id, token, amount DESC, recipient) INCLUDE (since_seq, until_seq);

-- A campaign's breakdowns by amount (GET /v4/rewards?campaignId, /v4/historical/campaign, the campaign filter of
-- /v4/diffs/leaf-breakdowns): the same key as before, now with the validity columns, so a page far down the list
-- or with hide=true skips its rows in the index alone. Keeps the old name (code and comments cite it).
CREATE INDEX reward_breakdown_versions_campaign_amount_seq_idx
  ON reward_breakdown_versions (chain_id, campaign_id, amount DESC, recipient, token, reason) INCLUDE (since_seq, until_seq);
DROP INDEX reward_breakdown_versions_campaign_amount_idx;
ALTER INDEX reward_breakdown_versions_campaign_amount_seq_idx RENAME TO reward_breakdown_versions_campaign_amount_idx;

-- The ids a campaign is stored under, whatever their case (reads compare lower(campaign_id)): every campaign id of
-- a stored breakdown has totals rows (indexer/store/rewardTotals.ts), a table far smaller than the breakdowns.
CREATE INDEX reward_campaign_totals_lower_id_idx ON reward_campaign_totals (chain_id, lower(campaign_id));

-- How many breakdowns, and their sum, each token (campaign_id '') and each campaign of a token hold in each stored
-- tree (GET /v4/diffs/leaf-breakdowns counts and sums every matching breakdown: a pass over half a million of them
-- at a million leaves). Stored by change like reward_token_totals (2026_11_30_07_reward_totals.sql): a row holds
-- from its seq until the next row of its key; indexer/store/rewardTotals.ts writes a tree's rows from the leaves it
-- changed, in the transaction that stores it.
CREATE TABLE reward_breakdown_totals (
  chain_id integer NOT NULL,
  token text NOT NULL,
  campaign_id text NOT NULL,
  seq bigint NOT NULL,
  breakdowns integer NOT NULL,
  amount numeric(78, 0) NOT NULL,
  PRIMARY KEY (chain_id, token, campaign_id, seq)
);

-- Trees stored before: the totals at each seq where a breakdown version opened or closed.
INSERT INTO reward_breakdown_totals (chain_id, token, campaign_id, seq, breakdowns, amount)
SELECT chain_id, token, campaign_id, seq, breakdowns, amount FROM (
  SELECT chain_id, token, campaign_id, seq, dn, da,
    sum(dn) OVER w AS breakdowns, sum(da) OVER w AS amount
  FROM (
    SELECT chain_id, token, coalesce(campaign_id, '') AS campaign_id, seq, sum(n) AS dn, sum(a) AS da FROM (
      SELECT chain_id, token, campaign_id, since_seq AS seq, 1 AS n, amount AS a FROM reward_breakdown_versions
      UNION ALL
      SELECT chain_id, token, campaign_id, until_seq, -1, -amount FROM reward_breakdown_versions WHERE until_seq IS NOT NULL
    ) e GROUP BY GROUPING SETS ((chain_id, token, campaign_id, seq), (chain_id, token, seq))
  ) d
  WINDOW w AS (PARTITION BY chain_id, token, campaign_id ORDER BY seq)
) t WHERE dn <> 0 OR da <> 0;
