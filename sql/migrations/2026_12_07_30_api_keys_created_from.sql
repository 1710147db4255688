-- Up Migration
-- The client address key a key was created from (api/middleware/clientAddress.ts clientKey: an IPv4
-- address, an IPv6 /64), so that the keys created from one address over a day are counted whatever
-- wallets made them (API_KEYS_PER_ADDRESS_PER_DAY, #43 F5: wallets and keys are free, addresses are
-- not). Null for keys created before this column: they count for no address.
ALTER TABLE api_keys ADD COLUMN created_from text;
CREATE INDEX api_keys_created_from_idx ON api_keys (created_from, created_at) WHERE created_from IS NOT NULL;
