-- Up Migration
-- Any page of GET /v4/rewards?campaignId (with or without `hide`) in a few index reads, however deep (#30: "any page
-- ≤ 100 ms over 1M recipients"). A page walked its campaign's breakdowns from the first (OFFSET): 0.4 µs a row, and
-- 1.4 µs with `hide` (each row's claimed total looked up), so the last pages of a million-recipient campaign took
-- 0.4 s / 1.4 s. Now each campaign's breakdowns in a kept tree (reward_unclaimed_trees: the live root is one of them)
-- are cut into buckets of a fixed number of rows in the page order (amount desc, recipient, token, reason): a bucket
-- row holds how many rows come before it (n), its first row, its size and how many of its rows `hide` leaves out
-- (amount ≤ the recipient's claimed total of the token; 0 without one). A page starts at the bucket holding its first
-- row (for `hide`: the bucket where the visible rows before it, n − hidden rows before it, reach the offset) and walks
-- at most a bucket plus the page. Built by the roots job after a tree is stored (indexer/store/rewardAnchors.ts,
-- reward_campaign_anchors_build) and listed in reward_anchored_trees once whole; kept exact by the claims trigger
-- (claimed_totals_add below moves `hidden` of the buckets of every breakdown whose side of its claimed total changed),
-- under the same per-chain lock. Dropped with the tree's unclaimed rows (rewardUnclaimed.ts) and on a claims TRUNCATE.
-- A read of a tree not listed walks from the first row as before.

CREATE TABLE reward_campaign_anchors (
  chain_id integer NOT NULL,
  seq bigint NOT NULL,
  campaign_id text NOT NULL,
  -- The campaign's rows in tree seq before this bucket (0, size, 2 × size, …).
  n bigint NOT NULL,
  size integer NOT NULL,
  -- The bucket's first row, in the page order.
  amount numeric(78, 0) NOT NULL,
  recipient text NOT NULL,
  token text NOT NULL,
  reason text NOT NULL,
  -- Rows of the bucket that `hide` leaves out now.
  hidden integer NOT NULL,
  PRIMARY KEY (chain_id, seq, campaign_id, n)
);

-- A row's bucket (claimed_totals_add): anchors of one amount in (recipient, token, reason) order.
CREATE INDEX reward_campaign_anchors_key_idx ON reward_campaign_anchors (chain_id, seq, campaign_id, amount, recipient, token, reason);

-- The trees whose anchors are whole (the bucket size they were cut with).
CREATE TABLE reward_anchored_trees (
  chain_id integer NOT NULL,
  seq bigint NOT NULL,
  bucket integer NOT NULL,
  built_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, seq)
);

-- Cuts tree `tree_seq`'s breakdowns into anchors of `bucket` rows per campaign (replacing any), with hidden counts from
-- the claimed totals now; under the claims trigger's lock, so no claim is counted twice or missed. Null (nothing
-- written) when the tree is no longer kept.
CREATE FUNCTION reward_campaign_anchors_build(chain integer, tree_seq bigint, bucket integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  built integer;
BEGIN
  PERFORM pg_advisory_xact_lock(7695971, chain);
  IF NOT EXISTS (SELECT 1 FROM reward_unclaimed_trees WHERE chain_id = chain AND seq = tree_seq) THEN
    RETURN NULL;
  END IF;
  DELETE FROM reward_campaign_anchors WHERE chain_id = chain AND seq = tree_seq;
  DELETE FROM reward_anchored_trees WHERE chain_id = chain AND seq = tree_seq;
  WITH ordered AS MATERIALIZED (
    SELECT b.campaign_id, b.amount, b.recipient, b.token, b.reason,
      (b.amount <= coalesce(k.amount, 0))::int AS hidden,
      row_number() OVER (PARTITION BY b.campaign_id ORDER BY b.amount DESC, b.recipient, b.token, b.reason) - 1 AS i
    FROM reward_breakdown_versions b
    LEFT JOIN claimed_totals k ON k.chain_id = chain AND k.recipient = b.recipient AND k.token = b.token
    WHERE b.chain_id = chain AND b.since_seq <= tree_seq AND (b.until_seq IS NULL OR b.until_seq > tree_seq)
  )
  INSERT INTO reward_campaign_anchors (chain_id, seq, campaign_id, n, size, amount, recipient, token, reason, hidden)
  SELECT chain, tree_seq, f.campaign_id, f.i, c.size, f.amount, f.recipient, f.token, f.reason, c.hidden
  FROM ordered f
  JOIN (SELECT campaign_id, i / bucket AS b, count(*) AS size, sum(hidden) AS hidden FROM ordered GROUP BY 1, 2) c
    ON c.campaign_id = f.campaign_id AND c.b = f.i / bucket
  WHERE f.i % bucket = 0;
  GET DIAGNOSTICS built = ROW_COUNT;
  INSERT INTO reward_anchored_trees (chain_id, seq, bucket) VALUES (chain, tree_seq, bucket);
  RETURN built;
END $$;

-- claimed_totals_add of 2026_12_03_06_reward_campaign_unclaimed.sql, plus: each breakdown of a changed (chain,
-- recipient, token) in an anchored kept tree whose amount crosses its claimed total (hidden before and not after, or
-- the other way) moves its bucket's `hidden` by one. Its bucket, the last anchor at or before it in the page order
-- (amount desc, then the rest asc), in index probes: the last anchor of the same amount at or before the rest, else
-- the last anchor of the smallest larger amount (the first anchor is the campaign's first row: one always is). 10,036
-- whole-leaf claims at a million leaves, two anchored trees: 0.57 s without anchors, 0.93 s with (7.7 s when the
-- bucket was found by walking the anchors down).
CREATE OR REPLACE FUNCTION claimed_totals_add(chains integer[], recipients text[], tokens text[], deltas numeric[]) RETURNS void
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
  UPDATE reward_campaign_anchors a SET hidden = a.hidden + x.change
  FROM (
    SELECT q.chain_id, q.seq, q.campaign_id, q.n, sum(q.change) AS change FROM (
      SELECT d.chain_id, m.seq, b.campaign_id,
        (b.amount <= coalesce(k.amount, 0) + d.delta)::int - (b.amount <= coalesce(k.amount, 0))::int AS change,
        coalesce(
          (SELECT a.n FROM reward_campaign_anchors a
           WHERE a.chain_id = d.chain_id AND a.seq = m.seq AND a.campaign_id = b.campaign_id AND a.amount = b.amount
             AND (a.recipient, a.token, a.reason) <= (b.recipient, b.token, b.reason)
           ORDER BY a.recipient DESC, a.token DESC, a.reason DESC LIMIT 1),
          (SELECT a.n FROM reward_campaign_anchors a
           WHERE a.chain_id = d.chain_id AND a.seq = m.seq AND a.campaign_id = b.campaign_id
             AND a.amount = (SELECT min(x.amount) FROM reward_campaign_anchors x
                             WHERE x.chain_id = d.chain_id AND x.seq = m.seq AND x.campaign_id = b.campaign_id AND x.amount > b.amount)
           ORDER BY a.recipient DESC, a.token DESC, a.reason DESC LIMIT 1)) AS n
      FROM unnest(chains, recipients, tokens, deltas) d(chain_id, recipient, token, delta)
      JOIN reward_anchored_trees m ON m.chain_id = d.chain_id
      JOIN reward_breakdown_versions b ON b.chain_id = d.chain_id AND b.recipient = d.recipient AND b.token = d.token
        AND b.since_seq <= m.seq AND (b.until_seq IS NULL OR b.until_seq > m.seq)
      LEFT JOIN claimed_totals k ON k.chain_id = d.chain_id AND k.recipient = d.recipient AND k.token = d.token
    ) q WHERE q.change <> 0 GROUP BY 1, 2, 3, 4
  ) x
  WHERE a.chain_id = x.chain_id AND a.seq = x.seq AND a.campaign_id = x.campaign_id AND a.n = x.n;
  INSERT INTO claimed_totals (chain_id, recipient, token, amount)
  SELECT * FROM unnest(chains, recipients, tokens, deltas) ORDER BY 1, 2, 3
  ON CONFLICT (chain_id, recipient, token) DO UPDATE SET amount = claimed_totals.amount + EXCLUDED.amount;
END $$;

CREATE OR REPLACE FUNCTION claims_truncate_claimed_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE claimed_totals, reward_campaign_unclaimed, reward_unclaimed_trees, reward_campaign_anchors, reward_anchored_trees;
  RETURN NULL;
END $$;
