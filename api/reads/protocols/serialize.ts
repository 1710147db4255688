import type { ProtocolAggregate } from './aggregate.js';

/** Public protocol record (protocolSchema in api/openapi/records.ts), every field named. */
export type ProtocolResponse = {
  id: string;
  name: string;
  icon: string;
  description: string;
  url: string;
  tags: string[];
  dailyRewards: number;
  numberOfLiveCampaigns: number;
  opportunityLiveTags: string[];
  banner: string | null;
  opportunityBannerLight: string | null;
  opportunityBannerDark: string | null;
  trustData: null;
};

/**
 * Pure: an aggregated protocol → the public record. We hold no banners and no trust data (no
 * third-party audit feed), so those are null.
 */
export function serializeProtocol(p: ProtocolAggregate): ProtocolResponse {
  return {
    id: p.id,
    name: p.name,
    icon: p.icon,
    description: p.description,
    url: p.url,
    tags: [...p.tags],
    dailyRewards: p.dailyRewards,
    numberOfLiveCampaigns: p.numberOfLiveCampaigns,
    opportunityLiveTags: [...p.opportunityLiveTags],
    banner: null,
    opportunityBannerLight: null,
    opportunityBannerDark: null,
    trustData: null,
  };
}
