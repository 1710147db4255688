import type { AuthState } from '../../identity/types.js';
import type { OnChainCampaignRecord } from '../../visibility/campaignVisibility.js';

/** Why a stored configuration may be attached to a campaign (column campaign_config_associations.grounds). */
export type AttachGrounds = 'onchain' | 'creator' | 'backOffice';

/** Whether GET /v4/config/hash/{hash}?campaignId&distributionChainId attaches the configuration, and why (not). */
export type AttachDecision = { attach: true; grounds: AttachGrounds } | { attach: false; reason: string };

/**
 * Pure: a configuration is attached to a campaign only when the campaign's own on-chain data
 * commits to its hash (the config-hash form: campaignData is exactly the 32-byte hash, as created
 * or as overridden), or when the caller is the campaign's creator (its session, or its API key's
 * owner) or the back office. Anyone else reads the configuration and attaches nothing, so no
 * anonymous or other-user request changes what others read (e.g. a campaign's ratchet settings).
 */
export function decideAttach(
  campaign: OnChainCampaignRecord | null,
  hash: string,
  state: Pick<AuthState, 'auth' | 'backOffice'>,
): AttachDecision {
  if (!campaign) return { attach: false, reason: 'no such campaign is indexed on that chain' };
  if (campaign.createdData === hash || campaign.currentData === hash) return { attach: true, grounds: 'onchain' };
  if (state.backOffice) return { attach: true, grounds: 'backOffice' };
  if (state.auth && state.auth.address === campaign.creator) return { attach: true, grounds: 'creator' };
  return {
    attach: false,
    reason: "the campaign's on-chain data does not commit to this hash and the caller is not its creator",
  };
}
