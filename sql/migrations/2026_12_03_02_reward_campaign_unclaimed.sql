-- Up Migration
-- What each campaign's recipients have not claimed of it, per stored tree (#33, GET /v4/rewards/unclaim?campaignIds):
-- the route summed, per request, every breakdown of the campaign in the live tree with its leaf and its recipient's
-- claimed total (380 ms p50 for a 72k-recipient campaign). The figure of a tree `seq` is
--   sum over the campaign's breakdowns b valid at seq of reward_unclaimed_share(b.amount, leaf at seq, claimed now)
-- (api/reads/rewardTotals.ts unclaimedOfCampaign, the read-time definition, which stays the fallback).
-- It depends on claims made after the tree, so a claim changes it for every tree its recipient is in: it is kept only
-- for the latest few stored trees of each chain (the live root is one of the last two roots), listed in
-- reward_unclaimed_trees; a read whose live tree is not listed there computes the figure as before.
-- Kept in the writing transactions: indexer/store/rewardUnclaimed.ts builds a stored tree's rows (from the previous
-- tree's rows and the leaves it changed), and the claims trigger applies each claimed total's change to the listed
-- trees (claims stored, re-mined, or deleted by a reorg rollback). Both take the advisory lock (0x756e63, chain id),
-- so a tree is never built from claimed totals that a concurrent claim then changes without seeing the tree.
-- A campaign whose figure is 0 has no row, or a row at 0 (left by a claim).

-- One breakdown's share of its leaf's unclaimed amount (leaf − claimed, never negative), pro rata, rounded down.
CREATE FUNCTION reward_unclaimed_share(breakdown numeric, leaf numeric, claimed numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN leaf = 0 THEN 0 ELSE trunc(breakdown * greatest(leaf - coalesce(claimed, 0), 0) / leaf) END
$$;

-- The trees whose rows below are complete.
CREATE TABLE reward_unclaimed_trees (
  chain_id integer NOT NULL,
  seq bigint NOT NULL,
  PRIMARY KEY (chain_id, seq)
);

CREATE TABLE reward_campaign_unclaimed (
  chain_id integer NOT NULL,
  seq bigint NOT NULL,
  campaign_id text NOT NULL,
  amount numeric NOT NULL,
  PRIMARY KEY (chain_id, seq, campaign_id) INCLUDE (amount)
);

-- Existing data: the latest three stored trees of each chain, summed over their breakdowns.
INSERT INTO reward_unclaimed_trees (chain_id, seq)
SELECT chain_id, seq FROM (
  SELECT chain_id, seq, row_number() OVER (PARTITION BY chain_id ORDER BY seq DESC) AS n FROM reward_trees WHERE seq IS NOT NULL
) t WHERE n <= 3;

INSERT INTO reward_campaign_unclaimed (chain_id, seq, campaign_id, amount)
SELECT m.chain_id, m.seq, b.campaign_id, sum(reward_unclaimed_share(b.amount, l.amount, k.amount))
FROM reward_unclaimed_trees m
JOIN reward_breakdown_versions b ON b.chain_id = m.chain_id AND b.since_seq <= m.seq AND (b.until_seq IS NULL OR b.until_seq > m.seq)
JOIN reward_leaf_versions l ON l.chain_id = b.chain_id AND l.recipient = b.recipient AND l.token = b.token
  AND l.since_seq <= m.seq AND (l.until_seq IS NULL OR l.until_seq > m.seq)
LEFT JOIN claimed_totals k ON k.chain_id = b.chain_id AND k.recipient = b.recipient AND k.token = b.token
GROUP BY m.chain_id, m.seq, b.campaign_id
HAVING sum(reward_unclaimed_share(b.amount, l.amount, k.amount)) <> 0;

-- Adds `deltas` to the claimed totals of (chain, recipient, token) (one entry per key), and their effect to the rows
-- of the listed trees: each breakdown of a changed key moves by its share at the new total minus at the old one.
CREATE FUNCTION claimed_totals_add(chains integer[], recipients text[], tokens text[], deltas numeric[]) RETURNS void
LANGUAGE plpgsql STRICT AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7695971, c) FROM (SELECT DISTINCT unnest(chains) AS c ORDER BY 1) l;
  INSERT INTO reward_campaign_unclaimed (chain_id, seq, campaign_id, amount)
  SELECT d.chain_id, m.seq, b.campaign_id,
    sum(reward_unclaimed_share(b.amount, l.amount, coalesce(k.amount, 0) + d.delta) - reward_unclaimed_share(b.amount, l.amount, k.amount))
  FROM unnest(chains, recipients, tokens, deltas) d(chain_id, recipient, token, delta)
  JOIN reward_unclaimed_trees m ON m.chain_id = d.chain_id
  JOIN reward_leaf_versions l ON l.chain_id = d.chain_id AND l.recipient = d.recipient AND l.token = d.token
    AND l.since_seq <= m.seq AND (l.until_seq IS NULL OR l.until_seq > m.seq)
  JOIN reward_breakdown_versions b ON b.chain_id = d.chain_id AND b.recipient = d.recipient AND b.token = d.token
    AND b.since_seq <= m.seq AND (b.until_seq IS NULL OR b.until_seq > m.seq)
  LEFT JOIN claimed_totals k ON k.chain_id = d.chain_id AND k.recipient = d.recipient AND k.token = d.token
  GROUP BY 1, 2, 3
  HAVING sum(reward_unclaimed_share(b.amount, l.amount, coalesce(k.amount, 0) + d.delta) - reward_unclaimed_share(b.amount, l.amount, k.amount)) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (chain_id, seq, campaign_id) DO UPDATE SET amount = reward_campaign_unclaimed.amount + EXCLUDED.amount;
  INSERT INTO claimed_totals (chain_id, recipient, token, amount)
  SELECT * FROM unnest(chains, recipients, tokens, deltas) ORDER BY 1, 2, 3
  ON CONFLICT (chain_id, recipient, token) DO UPDATE SET amount = claimed_totals.amount + EXCLUDED.amount;
END $$;

-- The claims trigger of 2026_12_01_34_claimed_totals.sql, now through claimed_totals_add.
CREATE OR REPLACE FUNCTION claims_apply_claimed_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM claimed_totals_add(array_agg(chain_id), array_agg(recipient), array_agg(token), array_agg(delta))
    FROM (SELECT chain_id, recipient, token, sum(amount) AS delta FROM new_rows GROUP BY 1, 2, 3) d;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM claimed_totals_add(array_agg(chain_id), array_agg(recipient), array_agg(token), array_agg(delta))
    FROM (SELECT chain_id, recipient, token, -sum(amount) AS delta FROM old_rows GROUP BY 1, 2, 3) d;
  ELSE
    PERFORM claimed_totals_add(array_agg(chain_id), array_agg(recipient), array_agg(token), array_agg(delta))
    FROM (
      SELECT chain_id, recipient, token, sum(delta) AS delta FROM (
        SELECT chain_id, recipient, token, amount AS delta FROM new_rows
        UNION ALL SELECT chain_id, recipient, token, -amount FROM old_rows) u
      GROUP BY 1, 2, 3
    ) d;
  END IF;
  RETURN NULL;
END $$;

-- Without claims the rows are wrong: they go too, and the next stored tree is summed whole.
CREATE OR REPLACE FUNCTION claims_truncate_claimed_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE claimed_totals, reward_campaign_unclaimed, reward_unclaimed_trees;
  RETURN NULL;
END $$;
