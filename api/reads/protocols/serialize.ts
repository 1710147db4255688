import type { ProtocolAggregate } from './aggregate.js';

import type { ProtocolRecord } from '../../../domain/documents/records.js';

/** Public Protocol record, as every route answering a protocol serves it (PROTOCOL_RECORD_SCHEMA, domain). */
export type ProtocolResponse = ProtocolRecord;

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
