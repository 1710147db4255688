-- Up Migration
-- The creation fee in USD at the price of the campaign's creation day (#33, GET /v4/accounting/revenues): the route
-- looked a price up per campaign at read time (0.7–0.9 s at 100k campaigns); it now sums this column.
-- fee_usd = fee_amount / 10^decimals × the token's last daily close on or before the UTC creation day; NULL while the
-- fee is not read or no price is known for that day (the route's `unpricedCampaigns`).
-- Kept right by triggers rather than by the jobs, so that every writer (campaign-fees job, prices job, backfills,
-- fixtures written in SQL) agrees with the read-time definition:
-- - a campaign row computes it whenever its fee, token, chain or creation time is written;
-- - a price written, changed or removed for a day recomputes the token's campaigns created on or after that day
--   (a price arriving later fills the campaigns left unpriced; a closer earlier close replaces a farther one);
-- - a token's decimals changing recomputes its campaigns.
ALTER TABLE campaigns ADD COLUMN fee_usd numeric;

CREATE FUNCTION campaign_fee_usd(chain integer, token text, created timestamptz, fee numeric) RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT fee / power(10::numeric, t.decimals) * h.close::numeric
  FROM tokens t
  JOIN LATERAL (SELECT p.close FROM token_price_history p
                WHERE p.token_id = t.id AND p.day <= (created AT TIME ZONE 'UTC')::date
                ORDER BY p.day DESC LIMIT 1) h ON true
  WHERE t.chain_id = chain AND t.address = token
$$;

UPDATE campaigns SET fee_usd = campaign_fee_usd(distribution_chain_id, reward_token, created_at, fee_amount)
WHERE fee_amount IS NOT NULL;

CREATE FUNCTION campaigns_set_fee_usd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.fee_usd := CASE WHEN NEW.fee_amount IS NOT NULL
    THEN campaign_fee_usd(NEW.distribution_chain_id, NEW.reward_token, NEW.created_at, NEW.fee_amount) END;
  RETURN NEW;
END $$;
CREATE TRIGGER campaigns_fee_usd BEFORE INSERT OR UPDATE OF fee_amount, reward_token, distribution_chain_id, created_at
  ON campaigns FOR EACH ROW EXECUTE FUNCTION campaigns_set_fee_usd();

-- `changed`: the price rows written or removed by the statement.
CREATE FUNCTION token_prices_refresh_fee_usd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE campaigns c SET fee_usd = campaign_fee_usd(t.chain_id, t.address, c.created_at, c.fee_amount)
  FROM (SELECT token_id, min(day) AS since FROM changed GROUP BY token_id) n
  JOIN tokens t ON t.id = n.token_id
  WHERE c.distribution_chain_id = t.chain_id AND c.reward_token = t.address
    AND c.created_at >= (n.since::timestamp AT TIME ZONE 'UTC') AND c.fee_amount IS NOT NULL
    AND c.fee_usd IS DISTINCT FROM campaign_fee_usd(t.chain_id, t.address, c.created_at, c.fee_amount);
  RETURN NULL;
END $$;
CREATE TRIGGER token_price_history_fee_usd_insert AFTER INSERT ON token_price_history
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION token_prices_refresh_fee_usd();
CREATE TRIGGER token_price_history_fee_usd_update AFTER UPDATE ON token_price_history
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION token_prices_refresh_fee_usd();
CREATE TRIGGER token_price_history_fee_usd_delete AFTER DELETE ON token_price_history
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION token_prices_refresh_fee_usd();

CREATE FUNCTION tokens_refresh_fee_usd() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE campaigns SET fee_usd = campaign_fee_usd(distribution_chain_id, reward_token, created_at, fee_amount)
  WHERE distribution_chain_id = NEW.chain_id AND reward_token = NEW.address AND fee_amount IS NOT NULL;
  RETURN NULL;
END $$;
CREATE TRIGGER tokens_fee_usd AFTER UPDATE OF decimals ON tokens FOR EACH ROW
  WHEN (OLD.decimals IS DISTINCT FROM NEW.decimals) EXECUTE FUNCTION tokens_refresh_fee_usd();

-- The revenue groups and the triggers' recomputations: a chain's (and token's) campaigns in creation order, covering
-- the summed columns so the route reads the index only.
CREATE INDEX campaigns_fee_revenue_idx ON campaigns (distribution_chain_id, reward_token, created_at) INCLUDE (fee_amount, fee_usd);
