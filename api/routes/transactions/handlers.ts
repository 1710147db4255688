import { configuredChain } from '../../configuredChain.js';
import type { ApiDeps } from '../../deps.js';
import type { Handler } from '../../validate.js';
import { campaignVisibilityOf } from '../../visibility/campaignVisibility.js';
import { campaignsOfTransaction, creationOfCampaign } from './repo.js';
import type { creationHashQuery, transactionQuery } from './schema.js';
import { explorerTxUrl, transactionCampaigns } from './serialize.js';

/**
 * GET /v4/transactions/find-creation-hash: the creation transaction of a campaign the caller may see
 * (from its indexed NewCampaign event); all nulls for a campaign absent or hidden alike.
 */
export function findCreationHashHandler(deps: ApiDeps): Handler<{ query: typeof creationHashQuery }> {
  return async (ctx) => {
    const { chainId, campaignId } = ctx.state.query;
    const chain = configuredChain(deps, chainId);
    const found = await creationOfCampaign(
      deps.pg,
      chainId,
      campaignId,
      await campaignVisibilityOf(deps, ctx.state, true),
    );
    ctx.body = found
      ? {
          hash: found.tx_hash,
          blockNumber: Number(found.block_number),
          explorerUrl: explorerTxUrl(chain, found.tx_hash),
        }
      : { hash: null, blockNumber: null, explorerUrl: null };
  };
}

/** The campaigns transaction `hash` created that the caller may see (400 for a chain we do not index). */
async function visibleCampaignsOfTransaction(
  deps: ApiDeps,
  state: Parameters<typeof campaignVisibilityOf>[1],
  { chainId, hash }: { chainId: number; hash: string },
) {
  configuredChain(deps, chainId);
  return campaignsOfTransaction(deps.pg, chainId, hash, await campaignVisibilityOf(deps, state, true));
}

/** GET /v4/transactions/campaigns: the campaigns a creation transaction created (visible to the caller). */
export function transactionCampaignsHandler(deps: ApiDeps): Handler<{ query: typeof transactionQuery }> {
  return async (ctx) => {
    ctx.body = transactionCampaigns(await visibleCampaignsOfTransaction(deps, ctx.state, ctx.state.query));
  };
}

/** GET /v4/transactions/campaign-ids: the on-chain ids of those campaigns. */
export function transactionCampaignIdsHandler(deps: ApiDeps): Handler<{ query: typeof transactionQuery }> {
  return async (ctx) => {
    const rows = await visibleCampaignsOfTransaction(deps, ctx.state, ctx.state.query);
    ctx.body = rows.map((r) => r.campaign_id);
  };
}
