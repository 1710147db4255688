import type { NewEvent } from '../../domain/tables/events.js';
import type { CampaignOverrideRow, CampaignReallocationRow, CampaignRow } from './campaigns.js';
import type { ClaimRow } from './claims.js';
import type { DistributorEventRow, RootRow } from './roots.js';

/**
 * Pure: one DistributionCreator batch → its events: `campaign.created` per new campaign,
 * `campaign.changed` per override (the new configuration's figures) and reallocation.
 */
export function toCampaignEvents(batch: {
  campaigns: readonly CampaignRow[];
  overrides: readonly CampaignOverrideRow[];
  reallocations: readonly CampaignReallocationRow[];
}): NewEvent[] {
  return [
    ...batch.campaigns.map(
      (c): NewEvent => ({
        type: 'campaign.created',
        chainId: c.distributionChainId,
        campaignDbId: c.id,
        opportunityId: c.opportunityId,
        address: c.creator,
        blockNumber: c.blockNumber,
        payload: {
          campaignId: c.campaignId,
          campaignType: c.campaignType,
          computeChainId: c.computeChainId,
          rewardToken: c.rewardToken,
          amount: c.amount,
          startTimestamp: c.startTimestamp,
          endTimestamp: c.endTimestamp,
          txHash: c.txHash,
        },
      }),
    ),
    ...batch.overrides.map(
      (o): NewEvent => ({
        type: 'campaign.changed',
        chainId: o.chainId,
        campaignDbId: o.campaignDbId,
        opportunityId: o.opportunityId,
        blockNumber: o.blockNumber,
        payload: {
          change: 'override',
          campaignId: o.campaignId,
          campaignType: o.campaignType,
          startTimestamp: o.startTimestamp,
          endTimestamp: o.endTimestamp,
          txHash: o.txHash,
        },
      }),
    ),
    ...batch.reallocations.map(
      (r): NewEvent => ({
        type: 'campaign.changed',
        chainId: r.chainId,
        campaignDbId: r.campaignDbId,
        address: r.to,
        blockNumber: r.blockNumber,
        payload: { change: 'reallocation', campaignId: r.campaignId, from: r.from, to: r.to, txHash: r.txHash },
      }),
    ),
  ];
}

const LIFECYCLE_TYPE = { disputed: 'root.disputed', dispute_resolved: 'root.dispute_resolved' } as const;

/**
 * Pure: one root-lifecycle batch → `root.seen` per TreeUpdated, `root.disputed` /
 * `root.dispute_resolved` per such log; `root.revoked` comes from the derived state
 * (toRevokedRootEvents), since a Revoked log names no root.
 */
export function toRootEvents(rows: { roots: readonly RootRow[]; events: readonly DistributorEventRow[] }): NewEvent[] {
  return [
    ...rows.roots.map(
      (r): NewEvent => ({
        type: 'root.seen',
        chainId: r.chainId,
        root: r.root,
        blockNumber: r.blockNumber,
        payload: { ipfsHash: r.ipfsHash, endOfDisputePeriod: r.endOfDisputePeriod, txHash: r.txHash },
      }),
    ),
    ...rows.events
      .filter((e): e is DistributorEventRow & { kind: keyof typeof LIFECYCLE_TYPE } => e.kind !== 'revoked')
      .map(
        (e): NewEvent => ({
          type: LIFECYCLE_TYPE[e.kind],
          chainId: e.chainId,
          blockNumber: e.blockNumber,
          payload: { reason: e.reason, valid: e.valid, endOfDisputePeriod: e.endOfDisputePeriod, txHash: e.txHash },
        }),
      ),
  ];
}

/** Pure: roots newly flagged revoked by refreshRootState → `root.revoked` events. */
export function toRevokedRootEvents(
  chainId: number,
  revoked: readonly { root: string; blockNumber: number }[],
): NewEvent[] {
  return revoked.map((r) => ({ type: 'root.revoked', chainId, root: r.root, blockNumber: r.blockNumber }));
}

/** Pure: Claimed rows → `claim.indexed` events (per recipient). */
export function toClaimEvents(rows: readonly ClaimRow[]): NewEvent[] {
  return rows.map((c) => ({
    type: 'claim.indexed',
    chainId: c.chainId,
    address: c.recipient,
    blockNumber: c.blockNumber,
    payload: { token: c.token, amount: c.amount, txHash: c.txHash, logIndex: c.logIndex },
  }));
}
