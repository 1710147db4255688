import type { Hex } from 'viem';
import { pendingFeeCampaigns, storeCampaignFees, type PendingFeeCampaign } from '../indexer/store/campaignFees.js';
import { campaignFeesOfReceipt } from '../indexer/transform/campaignFees.js';
import type { ChainClient } from '../internal/rpc.js';
import type { Job } from '../domain/jobs/types.js';
import { jobInfo } from '../domain/jobs/catalog.js';

/** Campaigns per chain and run: bounds the receipts one run reads (a backfill catches up over several runs). */
const CAMPAIGNS_PER_RUN = 500;
/** Receipts requested at once (the client batches concurrent calls). */
const RECEIPT_CONCURRENCY = 8;

/** The campaigns grouped by creation transaction. */
function byTransaction(campaigns: PendingFeeCampaign[]): Map<string, PendingFeeCampaign[]> {
  const out = new Map<string, PendingFeeCampaign[]>();
  for (const c of campaigns) out.set(c.txHash, [...(out.get(c.txHash) ?? []), c]);
  return out;
}

/** Fees of the campaigns of each transaction, from its receipt; a receipt the node no longer has (reorg) is skipped. */
async function feesOf({ chain, client }: ChainClient, txs: Map<string, PendingFeeCampaign[]>) {
  const fees = new Map<string, bigint>();
  const entries = [...txs];
  for (let i = 0; i < entries.length; i += RECEIPT_CONCURRENCY) {
    const slice = entries.slice(i, i + RECEIPT_CONCURRENCY);
    const receipts = await Promise.all(
      slice.map(([hash]) => client.getTransactionReceipt({ hash: hash as Hex }).catch(() => null)),
    );
    slice.forEach(([, campaigns], j) => {
      const receipt = receipts[j];
      if (!receipt) return;
      const found = campaignFeesOfReceipt({
        logs: receipt.logs.map((l) => ({ address: l.address, topics: l.topics, data: l.data, logIndex: l.logIndex })),
        campaigns,
        distributionCreator: chain.distributionCreator,
        distributor: chain.distributor,
      });
      for (const [id, fee] of found) fees.set(id, fee);
    });
  }
  return fees;
}

/**
 * The creation fee of each campaign (#33, GET /v4/accounting/revenues): NewCampaign carries the net amount
 * only, so the fee is read from the creation transaction's reward-token transfers (campaignFeesOfReceipt) and
 * stored in campaigns.fee_amount; rows indexed before the column existed are filled the same way.
 * Steps per chain: select pending campaigns → fetch receipts → transform → one UPDATE.
 * Tables: campaigns (fee_amount).
 */
export const syncCampaignFees: Job = {
  ...jobInfo('campaign-fees'),
  async run(deps) {
    const counts = { campaigns: 0, transactions: 0 };
    for (const chainClient of deps.rpc.values()) {
      if (deps.signal.aborted) break;
      const pending = await pendingFeeCampaigns(deps.pg, chainClient.chain.id, CAMPAIGNS_PER_RUN);
      if (!pending.length) continue;
      const txs = byTransaction(pending);
      counts.transactions += txs.size;
      counts.campaigns += await storeCampaignFees(deps.pg, await feesOf(chainClient, txs));
    }
    return { ranges: [], counts };
  },
};
