-- Up Migration
-- What a pool or market opportunity stands on (#42 "Real protocols, true figures"): a Uniswap V3 pool's
-- token0/token1 and fee, a Uniswap V4 pool's currency0/currency1 and fee (from its Initialize event), a
-- Morpho Blue market's loan and collateral tokens and LLTV. Written by the metrics job when it reads the
-- pool or market for its TVL (indexer/store/opportunityUnderlying.ts); the projection names the
-- opportunity from these tokens and lists them in its `tokens` (docs/api-behaviour.md#opportunity-names-and-links).
-- An opportunity without a row (not read yet, not a pool or market) keeps its name from its identifier.
CREATE TABLE opportunity_underlying (
  opportunity_id text PRIMARY KEY REFERENCES opportunities (id) ON DELETE CASCADE,
  -- Lower-case token addresses in the protocol's order: token0, token1 (a pool); loan, collateral (a
  -- market; an idle market has no collateral). The zero address is the chain's native token (V4 only).
  tokens text[] NOT NULL CHECK (cardinality(tokens) BETWEEN 1 AND 8),
  -- Pool fee in hundredths of a bip (3000 = 0.3%); 8388608 (0x800000) is a V4 dynamic fee; null for a market.
  fee integer CHECK (fee >= 0),
  -- Morpho Blue liquidation LTV, WAD (860000000000000000 = 86%); null for a pool.
  lltv numeric(78, 0),
  -- The contract a block explorer can show for it: the pool (V3), the PoolManager (V4), Morpho Blue (market).
  contract text NOT NULL,
  read_at timestamptz NOT NULL
);
-- documentsUsingTokens: the opportunities to re-project when one of their tokens changes.
CREATE INDEX opportunity_underlying_tokens_idx ON opportunity_underlying USING gin (tokens);
