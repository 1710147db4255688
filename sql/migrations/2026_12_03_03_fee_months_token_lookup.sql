-- Up Migration
-- Creation fees per UTC month of creation, distribution chain and reward token (#33, GET /v4/accounting/revenues and
-- its /per-month, /chains, /tokens forms): the route grouped every campaign per request (225/601 ms p50/p95 at 100k
-- campaigns); it now reads these groups. Each row holds, over the campaigns of its group:
--   campaigns = count(*), fee_read = count(fee_amount), priced = count(fee_usd),
--   unpriced = count(*) FILTER (WHERE fee_amount > 0 AND fee_usd IS NULL),
--   amount = sum(fee_amount) (0 when none), amount_usd = sum(fee_usd) (0 when none; the read says null when priced = 0).
-- Sums of numerics are exact, so adding and taking back a campaign's fee leaves the same figure as summing again.
-- Kept by triggers on campaigns in the writing transaction, as deltas (concurrent writers of one group serialize on
-- its row), per statement: campaigns indexed (INSERT), removed by a reorg rollback or otherwise (DELETE), and any
-- change of their fee, fee_usd (the price and decimals triggers of 2026_12_01_33_campaign_fee_usd.sql set it: a late
-- price or a corrected close), chain, token or creation time (UPDATE). A group whose campaigns are all gone keeps a
-- row with campaigns = 0.
CREATE TABLE campaign_fee_months (
  month date NOT NULL,
  chain_id integer NOT NULL,
  token text NOT NULL,
  campaigns integer NOT NULL,
  fee_read integer NOT NULL,
  priced integer NOT NULL,
  unpriced integer NOT NULL,
  amount numeric NOT NULL,
  amount_usd numeric NOT NULL,
  PRIMARY KEY (month, chain_id, token)
);
CREATE INDEX campaign_fee_months_chain_idx ON campaign_fee_months (chain_id, token, month);

-- The group of a campaign row.
CREATE FUNCTION campaign_fee_month(created timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('month', created AT TIME ZONE 'UTC')::date
$$;

INSERT INTO campaign_fee_months (month, chain_id, token, campaigns, fee_read, priced, unpriced, amount, amount_usd)
SELECT campaign_fee_month(created_at), distribution_chain_id, reward_token, count(*), count(fee_amount), count(fee_usd),
  count(*) FILTER (WHERE fee_amount > 0 AND fee_usd IS NULL), coalesce(sum(fee_amount), 0), coalesce(sum(fee_usd), 0)
FROM campaigns GROUP BY 1, 2, 3;

-- Adds the rows of `changed` to their groups: +1 for the rows a statement wrote, -1 for those it removed or replaced
-- (an update that changes none of the summed columns nets to nothing and writes nothing). Per statement, so a price
-- that recomputes thousands of campaigns updates each of their groups once.
CREATE FUNCTION campaign_fee_months_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols text := 'created_at, distribution_chain_id, reward_token, fee_amount, fee_usd';
  changed text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT 1 AS sign, %s FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT -1 AS sign, %s FROM old_rows', cols)
    ELSE format('SELECT 1 AS sign, %s FROM new_rows UNION ALL SELECT -1, %s FROM old_rows', cols, cols) END;
BEGIN
  EXECUTE format($q$
    INSERT INTO campaign_fee_months (month, chain_id, token, campaigns, fee_read, priced, unpriced, amount, amount_usd)
    SELECT * FROM (
      SELECT campaign_fee_month(created_at), distribution_chain_id, reward_token, sum(sign) AS campaigns,
        coalesce(sum(sign) FILTER (WHERE fee_amount IS NOT NULL), 0) AS fee_read,
        coalesce(sum(sign) FILTER (WHERE fee_usd IS NOT NULL), 0) AS priced,
        coalesce(sum(sign) FILTER (WHERE fee_amount > 0 AND fee_usd IS NULL), 0) AS unpriced,
        coalesce(sum(sign * fee_amount), 0) AS amount, coalesce(sum(sign * fee_usd), 0) AS amount_usd
      FROM (%s) c GROUP BY 1, 2, 3
    ) d WHERE (campaigns, fee_read, priced, unpriced, amount, amount_usd) <> (0, 0, 0, 0, 0, 0)
    ORDER BY 1, 2, 3
    ON CONFLICT (month, chain_id, token) DO UPDATE SET
      campaigns = campaign_fee_months.campaigns + EXCLUDED.campaigns,
      fee_read = campaign_fee_months.fee_read + EXCLUDED.fee_read,
      priced = campaign_fee_months.priced + EXCLUDED.priced,
      unpriced = campaign_fee_months.unpriced + EXCLUDED.unpriced,
      amount = campaign_fee_months.amount + EXCLUDED.amount,
      amount_usd = campaign_fee_months.amount_usd + EXCLUDED.amount_usd
  $q$, changed);
  RETURN NULL;
END $$;
CREATE TRIGGER campaigns_fee_months_insert AFTER INSERT ON campaigns
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_fee_months_apply();
CREATE TRIGGER campaigns_fee_months_update AFTER UPDATE ON campaigns
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_fee_months_apply();
CREATE TRIGGER campaigns_fee_months_delete AFTER DELETE ON campaigns
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION campaign_fee_months_apply();

CREATE FUNCTION campaign_fee_months_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE campaign_fee_months;
  RETURN NULL;
END $$;
CREATE TRIGGER campaigns_fee_months_truncate AFTER TRUNCATE ON campaigns
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_fee_months_truncate();

-- A token by chain and lower-cased address (#33, GET /v4/users/{address}/rewards/summary, and the other reads that
-- join tokens on lower(address) to a tree's lower-case token): without it each such join read every token of the
-- chain (19 ms for 7k tokens, per chain of the summary).
CREATE INDEX tokens_chain_lower_address_idx ON tokens (chain_id, lower(address));
