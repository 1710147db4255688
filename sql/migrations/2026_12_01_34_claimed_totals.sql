-- Up Migration
-- What each recipient claimed of each token on each chain, in total (#33, GET /v4/rewards/unclaim): the route summed
-- the Claimed rows of every recipient of a campaign at read time (one claims lookup per recipient).
-- claimed_totals.amount = sum(claims.amount) of the same (chain, recipient, token). Kept by a trigger on claims, in
-- the writing transaction, as deltas (concurrent writers of one key serialize on its row, no lost update): the claims
-- job's upserts (a re-mined claim moving to another key subtracts from the old key and adds to the new one), the
-- reorg rollback's DELETE of claims above the ancestor (indexer/store/rollback.ts) and any other writer alike.
-- A key whose claims are all gone keeps a row with amount 0 (reads treat it as no claim).
CREATE TABLE claimed_totals (
  chain_id integer NOT NULL,
  recipient text NOT NULL,
  token text NOT NULL,
  amount numeric(78, 0) NOT NULL,
  PRIMARY KEY (chain_id, recipient, token)
);
CREATE INDEX claimed_totals_chain_token_idx ON claimed_totals (chain_id, token);

INSERT INTO claimed_totals (chain_id, recipient, token, amount)
SELECT chain_id, recipient, token, sum(amount) FROM claims GROUP BY 1, 2, 3;

-- `new_rows` / `old_rows`: the claims the statement wrote / replaced or deleted (only those its event has).
CREATE FUNCTION claims_apply_claimed_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO claimed_totals (chain_id, recipient, token, amount)
    SELECT chain_id, recipient, token, sum(amount) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (chain_id, recipient, token) DO UPDATE SET amount = claimed_totals.amount + EXCLUDED.amount;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO claimed_totals (chain_id, recipient, token, amount)
    SELECT chain_id, recipient, token, -sum(amount) FROM old_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (chain_id, recipient, token) DO UPDATE SET amount = claimed_totals.amount + EXCLUDED.amount;
  ELSE
    INSERT INTO claimed_totals (chain_id, recipient, token, amount)
    SELECT chain_id, recipient, token, sum(delta) FROM (
      SELECT chain_id, recipient, token, amount AS delta FROM new_rows
      UNION ALL SELECT chain_id, recipient, token, -amount FROM old_rows) d
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (chain_id, recipient, token) DO UPDATE SET amount = claimed_totals.amount + EXCLUDED.amount;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER claims_claimed_totals_insert AFTER INSERT ON claims
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claims_apply_claimed_totals();
CREATE TRIGGER claims_claimed_totals_update AFTER UPDATE ON claims
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claims_apply_claimed_totals();
CREATE TRIGGER claims_claimed_totals_delete AFTER DELETE ON claims
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION claims_apply_claimed_totals();

CREATE FUNCTION claims_truncate_claimed_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE claimed_totals;
  RETURN NULL;
END $$;
CREATE TRIGGER claims_claimed_totals_truncate AFTER TRUNCATE ON claims
  FOR EACH STATEMENT EXECUTE FUNCTION claims_truncate_claimed_totals();
