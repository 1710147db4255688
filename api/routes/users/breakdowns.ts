import { campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import { nowSeconds, type ApiDeps } from '../../deps.js';
import type { Handler } from '../../validate.js';
import { loadOpportunityDocuments } from '../../reads/opportunities/readContext.js';
import { currentChainContext } from '../../chainRecords.js';
import { serializeOpportunity } from '../../reads/opportunities/serialize.js';
import type { OpportunityRecord } from '../../../domain/documents/records.js';
import { loadUserRewards, type UserChainRewards } from '../../reads/users/loadUserRewards.js';
import { resolveChainIds } from '../../reads/users/params.js';
import type { ProofSource } from '../../reads/rewardProofs.js';
import type { userBreakdownsQuery, userParams } from '../../reads/users/schema.js';
import { cappedClaimed, splitClaimed } from '../../reads/users/serialize.js';

/** One opportunity's share of a reward: the sum of its campaigns' breakdowns. */
export type OpportunityGroup = { opportunityId: string | null; amount: bigint; claimed: bigint };

/**
 * Pure: a leaf's breakdowns grouped by the opportunity of their campaign (null when the campaign
 * is unknown here), each breakdown with its pro-rata share of what was claimed (splitClaimed), so
 * the groups' amounts and claims sum to the leaf's.
 */
export function groupByOpportunity(
  breakdowns: readonly { campaignId: string; amount: string }[],
  claimed: bigint,
  opportunityOf: (campaignId: string) => string | null,
): OpportunityGroup[] {
  const shares = splitClaimed(
    breakdowns.map((b) => BigInt(b.amount)),
    claimed,
  );
  const groups = new Map<string | null, OpportunityGroup>();
  breakdowns.forEach((b, i) => {
    const id = opportunityOf(b.campaignId.toLowerCase());
    const g = groups.get(id) ?? { opportunityId: id, amount: 0n, claimed: 0n };
    g.amount += BigInt(b.amount);
    g.claimed += shares[i]!;
    groups.set(id, g);
  });
  return [...groups.values()].sort((a, b) => (b.amount > a.amount ? 1 : b.amount < a.amount ? -1 : 0));
}

/**
 * GET /v4/users/{address}/rewards/breakdowns: per chain (all configured ones by default), the
 * user's leaves of the live verified root with their breakdowns grouped by opportunity (amount,
 * claimed, pending per opportunity; the Opportunity record attached, null when unknown). `tags`
 * keeps groups whose opportunity has one of the tags; `claimableOnly` keeps leaves with pending > 0.
 * Tables as GET /rewards; index <prefix>-opportunities.
 */
export function userBreakdownsHandler(
  deps: ApiDeps,
  proofs: ProofSource,
): Handler<{ params: typeof userParams; query: typeof userBreakdownsQuery }> {
  return async (ctx) => {
    const { address } = ctx.state.params;
    const q = ctx.state.query;
    const chainIds = resolveChainIds(deps, 'chainIds', q.chainIds);
    const now = nowSeconds(deps);
    const visible = await campaignVisibilityOf(deps, ctx.state, true);
    const [{ chains }, perChain] = await Promise.all([
      currentChainContext(deps, now),
      Promise.all(
        chainIds.map((chainId) => loadUserRewards({ deps, proofs, chainId, address: address.toLowerCase(), visible })),
      ),
    ]);
    const opportunityIds = [
      ...new Set(
        perChain.flatMap((c) =>
          [...c.campaigns.values()].map((i) => i.opportunityId).filter((id): id is string => id !== null),
        ),
      ),
    ];
    const opportunities = await loadOpportunityDocuments(deps, opportunityIds);
    const tags = q.tags?.flatMap((t) => t.split(',')).filter(Boolean);
    const serialized = new Map<string, OpportunityRecord>();
    const opportunityRecord = (id: string | null) => {
      const doc = id ? opportunities.get(id) : undefined;
      if (!doc) return null;
      if (!serialized.has(doc.id)) serialized.set(doc.id, serializeOpportunity(doc, chains, now));
      return serialized.get(doc.id)!;
    };
    ctx.body = perChain.map((data: UserChainRewards) => ({
      chain: chains.get(data.chainId) ?? null,
      distributor: deps.config.chains.find((c) => c.id === data.chainId)!.distributor.toLowerCase(),
      rewards: data.rewards
        .filter((r) => q.test || !r.token?.isTest)
        .map((r) => {
          const amount = BigInt(r.reward.amount);
          const claimed = cappedClaimed(amount, r.claimedTotal);
          const groups = groupByOpportunity(
            r.reward.breakdowns,
            claimed,
            (c) => data.campaigns.get(c)?.opportunityId ?? null,
          )
            .map((g) => ({ g, opportunity: opportunityRecord(g.opportunityId) }))
            .filter(
              ({ opportunity }) =>
                !tags?.length || (opportunity?.tags ?? []).some((t: unknown) => tags.includes(String(t))),
            );
          return {
            root: data.root,
            distributionChainId: data.chainId,
            recipient: r.reward.recipient,
            proofs: r.proofs,
            token: {
              address: r.reward.token,
              chainId: data.chainId,
              symbol: r.token?.symbol ?? '',
              decimals: r.token?.decimals ?? 18,
              type: r.token?.type ?? 'TOKEN',
              isTest: r.token?.isTest ?? false,
            },
            amount: amount.toString(),
            claimed: claimed.toString(),
            pending: (amount - claimed).toString(),
            breakdowns: groups.map(({ g, opportunity }) => ({
              opportunityId: g.opportunityId,
              opportunity,
              amount: g.amount.toString(),
              claimed: g.claimed.toString(),
              pending: (g.amount - g.claimed).toString(),
            })),
          };
        })
        .filter((r) => (!q.claimableOnly || BigInt(r.pending) > 0n) && (!tags?.length || r.breakdowns.length > 0)),
    }));
  };
}
