import type { ProgramRow } from './repo.js';

/** An Opportunity record as serializeOpportunity answers it (the figures a program sums). */
type MemberRecord = { id: string; tvl: number; dailyRewards: number; liveCampaigns: number };

/**
 * Pure: a program with its member opportunities (Opportunity records, as GET /v4/opportunities serves them) → the
 * Program record: the hosted fields (`dailyRewards`, `liveCampaigns`, `opportunities`) and our own totals (`tvl`,
 * `opportunitiesCount`, `campaignsCount`), each the sum over the members (`campaignsCount` over `campaignCounts`,
 * public campaigns per opportunity).
 */
export function serializeProgram<O extends MemberRecord>(
  p: ProgramRow,
  members: readonly O[],
  campaignCounts: ReadonlyMap<string, number>,
) {
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

export type ProgramRecord<O extends MemberRecord = MemberRecord> = ReturnType<typeof serializeProgram<O>>;
