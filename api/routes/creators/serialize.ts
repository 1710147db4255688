import type { CreatorRecord } from '../../reads/creators.js';
import type { DashboardRow } from './repo.js';

/** Public Creator record (docs/api-behaviour.md#creators) plus our `tags`. */
export type CreatorResponse = {
  id: string;
  name: string;
  icon: string | null;
  rebateFee: number;
  addresses: string[];
  tags: string[];
};

/** Pure: a creator (registered or implicit) → the public record, every field named. */
export function serializeCreator(c: CreatorRecord): CreatorResponse {
  return {
    id: c.id,
    name: c.name,
    icon: c.icon,
    rebateFee: c.rebateFee,
    addresses: [...c.addresses],
    tags: [...c.tags],
  };
}

/** Dashboard of GET /v4/creators/{creator}/dashboard (docs/api-behaviour.md#creators). */
export type DashboardResponse = {
  pastCampaigns: number;
  liveCampaigns: number;
  futureCampaigns: number;
  totalTvl: number;
  totalWallets: number;
  totalCampaigns: number;
  totalDistributed: number;
  creatorId: string | null;
};

/** Pure: dashboard figures → the public shape; `creatorId` is null for an implicit (unregistered) creator. */
export function serializeDashboard(row: DashboardRow, distributed: number, creator: CreatorRecord): DashboardResponse {
  return {
    pastCampaigns: row.past,
    liveCampaigns: row.live,
    futureCampaigns: row.future,
    totalTvl: row.total_tvl,
    totalWallets: row.total_wallets,
    totalCampaigns: row.total,
    totalDistributed: distributed,
    creatorId: creator.registered ? creator.id : null,
  };
}
