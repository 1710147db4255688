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
