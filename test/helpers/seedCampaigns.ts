import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../contracts/actions.js';
import { campaignDbId } from '../../domain/ids.js';
import type { TestChain } from './testChains.js';

export type SeedCampaignsParams = {
  chain: TestChain;
  /** Campaigns per transaction (one block each). */
  perTx: number;
  txs: number;
  /** Spread over this many target tokens, i.e. opportunities (at most the stack's targets). */
  targets?: number;
  /** Added to every start time, so seeds made at different times never collide on a campaign id. */
  salt?: number;
};

/**
 * Creates `txs × perTx` live ERC20 campaigns on a devnet, one transaction per block, rotating over
 * `targets` target tokens.
 * @returns the internal (database) ids of the campaigns and the block of each transaction.
 */
export async function seedCampaigns({
  chain,
  perTx,
  txs,
  targets = 2,
  salt = 0,
}: SeedCampaignsParams): Promise<{ ids: string[]; blocks: number[] }> {
  const { devnet, stack } = chain;
  const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
  const ids: string[] = [];
  const blocks: number[] = [];
  for (let tx = 0; tx < txs; tx++) {
    const result = await createCampaigns({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: Array.from({ length: perTx }, (_, i) => ({
        rewardToken: stack.tokens.rewards[0]!.address,
        amount: 10n ** 18n * BigInt(1 + tx * perTx + i),
        campaignType: 1,
        // The campaign id hashes the configuration (not the amount): distinct start times keep ids distinct.
        startTimestamp: now - 3600 + salt + tx * perTx + i,
        duration: 30 * 86_400,
        campaignData: encodeErc20CampaignData({
          targetToken: stack.tokens.targets[(tx * perTx + i) % targets]!.address,
        }),
      })),
    });
    ids.push(...result.campaignIds.map((id) => campaignDbId(devnet.chainId, id)));
    blocks.push(Number(result.blockNumber));
  }
  return { ids, blocks };
}
