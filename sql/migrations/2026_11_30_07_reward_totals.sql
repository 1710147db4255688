-- Up Migration
-- Per-tree totals of the stored reward trees (issue #33: GET /v4/rewards/total, /count, /unclaim,
-- /total/distributed): what a campaign (per reward token) and a token hold in a tree, and how many
-- recipients, without summing a million leaves per request. Stored by change like the amounts
-- themselves (2026_11_28_01_reward_versions.sql): a row holds the totals of every tree of its chain
-- from its `seq` until the next row of the same key, so a tree adds rows only for the campaigns and
-- tokens whose leaves it changed. indexer/store/rewardTotals.ts writes them in the transaction that
-- stores the tree, from the leaves it changed.

-- Sum of a campaign's breakdowns in a token, and its recipients (addresses with a breakdown of it).
CREATE TABLE reward_campaign_totals (
  chain_id integer NOT NULL,
  campaign_id text NOT NULL,
  token text NOT NULL,
  seq bigint NOT NULL,
  amount numeric(78, 0) NOT NULL,
  recipients integer NOT NULL,
  PRIMARY KEY (chain_id, campaign_id, token, seq)
);
-- What changed between two trees of a chain (distributed amounts: rows with seq in (previous, tree]).
CREATE INDEX reward_campaign_totals_seq_idx ON reward_campaign_totals (chain_id, seq);

-- Sum of a token's leaves, and their number (one leaf per recipient and token).
CREATE TABLE reward_token_totals (
  chain_id integer NOT NULL,
  token text NOT NULL,
  seq bigint NOT NULL,
  amount numeric(78, 0) NOT NULL,
  recipients integer NOT NULL,
  PRIMARY KEY (chain_id, token, seq)
);

-- Trees stored before: the totals at each seq where a version opened or closed, in one pass over
-- the versions (a leaf version adds at its since_seq and leaves at its until_seq).
INSERT INTO reward_token_totals (chain_id, token, seq, amount, recipients)
SELECT chain_id, token, seq, amount, recipients FROM (
  SELECT chain_id, token, seq, da, dn,
    sum(da) OVER w AS amount, sum(dn) OVER w AS recipients
  FROM (
    SELECT chain_id, token, seq, sum(a) AS da, sum(n) AS dn FROM (
      SELECT chain_id, token, since_seq AS seq, amount AS a, 1 AS n FROM reward_leaf_versions
      UNION ALL
      SELECT chain_id, token, until_seq, -amount, -1 FROM reward_leaf_versions WHERE until_seq IS NOT NULL
    ) e GROUP BY chain_id, token, seq
  ) d
  WINDOW w AS (PARTITION BY chain_id, token ORDER BY seq)
) t WHERE da <> 0 OR dn <> 0;

-- A recipient counts for a campaign while at least one of its breakdowns (one per reason) is valid:
-- the running number of valid rows per (recipient, token, campaign) going from 0 to more adds one.
INSERT INTO reward_campaign_totals (chain_id, campaign_id, token, seq, amount, recipients)
SELECT chain_id, campaign_id, token, seq, amount, recipients FROM (
  SELECT chain_id, campaign_id, token, seq, da, dr,
    sum(da) OVER w AS amount, sum(dr) OVER w AS recipients
  FROM (
    SELECT chain_id, campaign_id, token, seq, sum(a) AS da, sum((c > 0)::int - (c - n > 0)::int) AS dr FROM (
      SELECT chain_id, recipient, token, campaign_id, seq, a, n,
        sum(n) OVER (PARTITION BY chain_id, recipient, token, campaign_id ORDER BY seq) AS c
      FROM (
        SELECT chain_id, recipient, token, campaign_id, seq, sum(a) AS a, sum(n) AS n FROM (
          SELECT chain_id, recipient, token, campaign_id, since_seq AS seq, amount AS a, 1 AS n FROM reward_breakdown_versions
          UNION ALL
          SELECT chain_id, recipient, token, campaign_id, until_seq, -amount, -1 FROM reward_breakdown_versions
          WHERE until_seq IS NOT NULL
        ) e GROUP BY chain_id, recipient, token, campaign_id, seq
      ) k
    ) p GROUP BY chain_id, campaign_id, token, seq
  ) d
  WINDOW w AS (PARTITION BY chain_id, campaign_id, token ORDER BY seq)
) t WHERE da <> 0 OR dr <> 0;
