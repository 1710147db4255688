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
-- reward_campaign_anchors_build) and listed in reward_anchored_trees once whole; kept exact as the claimed totals
-- move (a trigger on claimed_totals moves `hidden` of the buckets of every breakdown whose side of its claimed total
-- changed), under the claims trigger's per-chain lock. Dropped with the tree's unclaimed rows (rewardUnclaimed.ts) and on a claims TRUNCATE.
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

-- A row's bucket (reward_anchors_follow_claimed): anchors of one amount in (recipient, token, reason) order.
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

-- `hidden` follows the claimed totals: each breakdown of a (chain, recipient, token) whose claimed total went from
-- `old` to `new`, in an anchored tree, whose amount crosses it (hidden before and not after, or the other way) moves
-- its bucket's `hidden` by one. Its bucket, the last anchor at or before it in the page order (amount desc, then the
-- rest asc), in index probes: the last anchor of the same amount at or before the rest, else the last anchor of the
-- smallest larger amount (the first anchor is the campaign's first row: one always is). 10,036 whole-leaf claims at a
-- million leaves, two anchored trees: 0.57 s without anchors, 0.93 s with (7.7 s when the bucket was found by
-- walking the anchors down).
CREATE FUNCTION reward_anchors_follow_claimed(chains integer[], recipients text[], tokens text[], olds numeric[],
  news numeric[]) RETURNS void LANGUAGE sql AS $$
  UPDATE reward_campaign_anchors a SET hidden = a.hidden + x.change
  FROM (
    SELECT q.chain_id, q.seq, q.campaign_id, q.n, sum(q.change) AS change FROM (
      SELECT d.chain_id, m.seq, b.campaign_id, (b.amount <= d.new)::int - (b.amount <= d.old)::int AS change,
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
      FROM unnest(chains, recipients, tokens, olds, news) d(chain_id, recipient, token, old, new)
      JOIN reward_anchored_trees m ON m.chain_id = d.chain_id
      JOIN reward_breakdown_versions b ON b.chain_id = d.chain_id AND b.recipient = d.recipient AND b.token = d.token
        AND b.since_seq <= m.seq AND (b.until_seq IS NULL OR b.until_seq > m.seq)
    ) q WHERE q.change <> 0 GROUP BY 1, 2, 3, 4
  ) x
  WHERE a.chain_id = x.chain_id AND a.seq = x.seq AND a.campaign_id = x.campaign_id AND a.n = x.n
$$;

-- On claimed_totals itself (claimed_totals_add writes it under the per-chain lock the build takes), per statement: its
-- rows inserted (from 0), updated (old to new) and deleted (to 0).
CREATE FUNCTION claimed_totals_move_anchors() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM reward_anchors_follow_claimed(array_agg(chain_id), array_agg(recipient), array_agg(token),
      array_agg(0::numeric), array_agg(amount)) FROM new_rows HAVING count(*) > 0;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM reward_anchors_follow_claimed(array_agg(n.chain_id), array_agg(n.recipient), array_agg(n.token),
      array_agg(o.amount), array_agg(n.amount))
    FROM new_rows n JOIN old_rows o USING (chain_id, recipient, token) HAVING count(*) > 0;
  ELSE
    PERFORM reward_anchors_follow_claimed(array_agg(chain_id), array_agg(recipient), array_agg(token),
      array_agg(amount), array_agg(0::numeric)) FROM old_rows HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER claimed_totals_anchors_insert AFTER INSERT ON claimed_totals REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION claimed_totals_move_anchors();
CREATE TRIGGER claimed_totals_anchors_update AFTER UPDATE ON claimed_totals
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claimed_totals_move_anchors();
CREATE TRIGGER claimed_totals_anchors_delete AFTER DELETE ON claimed_totals REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION claimed_totals_move_anchors();

-- The claims TRUNCATE of 2026_12_03_06 empties the anchors too (their hidden counts were of the claims).
CREATE OR REPLACE FUNCTION claims_truncate_claimed_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE claimed_totals, reward_campaign_unclaimed, reward_unclaimed_trees, reward_campaign_anchors, reward_anchored_trees;
  RETURN NULL;
END $$;
