import type { OpportunityRecord, ProgramRecord } from '../../../domain/documents/records.js';
import type { ProgramRow } from './repo.js';

/**
 * Pure: a program with its member opportunities (Opportunity records, as GET /v4/opportunities serves them) → the
 * Program record: the hosted fields (`dailyRewards`, `liveCampaigns`, `opportunities`) and our own totals (`tvl`,
 * `opportunitiesCount`, `campaignsCount`), each the sum over the members (`campaignsCount` over `campaignCounts`,
 * public campaigns per opportunity).
 */
export function serializeProgram(
  p: ProgramRow,
  members: readonly OpportunityRecord[],
  campaignCounts: ReadonlyMap<string, number>,
): ProgramRecord {
  let tvl = 0;
  let dailyRewards = 0;
  let liveCampaigns = 0;
  let campaignsCount = 0;
  for (const o of members) {
    tvl += o.tvl;
    dailyRewards += o.dailyRewards;
    liveCampaigns += o.liveCampaigns;
    campaignsCount += campaignCounts.get(o.id) ?? 0;
  }
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    description: p.description,
    icon: p.icon,
    dailyRewards,
    liveCampaigns,
    tvl,
    opportunitiesCount: members.length,
    campaignsCount,
    opportunities: [...members],
  };
}
