-- Up Migration
-- Why a stored configuration is attached to a campaign (README "Stored configurations"): the
-- campaign's own on-chain data commits to the configuration hash ('onchain': campaignData is
-- exactly that 32-byte hash), or the campaign's creator ('creator') or the back office
-- ('backOffice') asked for it. Associations recorded before this rule (anyone could attach any
-- configuration to any campaign) keep a NULL ground: they are listed, never trusted by reads such
-- as the ratchet's settings, unless the campaign commits to them on-chain (set here).
ALTER TABLE campaign_config_associations
  ADD COLUMN grounds text CHECK (grounds IN ('onchain', 'creator', 'backOffice'));
UPDATE campaign_config_associations a SET grounds = 'onchain'
  FROM campaigns c
  WHERE c.distribution_chain_id = a.distribution_chain_id AND lower(c.campaign_id) = lower(a.campaign_id)
    AND lower(c.campaign_data) = a.config_hash;
