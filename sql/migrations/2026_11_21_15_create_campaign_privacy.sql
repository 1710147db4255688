-- Up Migration
-- Campaign privacy (docs/api-behaviour.md#campaign-privacy): the privacy settings of a campaign (set by its creator or
-- the back office) and the dynamic access grants of private campaigns. Keyed by the internal campaign id without a
-- foreign key: a campaign removed by a reorg and mined again keeps its settings.

CREATE TABLE campaign_privacy (
  campaign_db_id text PRIMARY KEY,
  is_private boolean NOT NULL DEFAULT false,
  recipients_can_view boolean NOT NULL DEFAULT true,
  -- Static authorized list: [{ "address": lower-case, "canManageAccess": boolean }].
  authorized jsonb NOT NULL DEFAULT '[]',
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Revoke is a soft delete (revoked_at set); granting again reactivates the row.
CREATE TABLE campaign_access_grants (
  campaign_db_id text NOT NULL,
  user_address text NOT NULL CHECK (user_address = lower(user_address)),
  can_manage_access boolean NOT NULL DEFAULT false,
  granted_by text NOT NULL,
  granted_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  PRIMARY KEY (campaign_db_id, user_address)
);
CREATE INDEX campaign_access_grants_user_idx ON campaign_access_grants (user_address) WHERE revoked_at IS NULL;
