import type { Address, Hex } from 'viem';
import {
  claim,
  createCampaigns,
  encodeErc20CampaignData,
  getLatestTimestamp,
  mintTokens,
  overrideCampaign,
  updateTree,
} from '../../contracts/actions.js';
import type { DeployedStack } from '../../contracts/deploy.js';
import { buildRewardTree } from '../../domain/rewardTree.js';
import { buildRewardTreeFile } from '../../contracts/rewardTrees/buildRewardTreeFile.js';
import { writeRewardTree } from '../../contracts/rewardTrees/writeRewardTree.js';

const RECIPIENTS: Address[] = [
  '0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc',
  '0x976ea74026e726554db657fa54763abd0c3a0aa9',
  '0x14dc79964da2c08b23698b3d3cc7ca32193d9955',
];

export type ChainActivityCounts = { campaigns: number; overrides: number; trees: number; claims: number };

export type ChainActivity = {
  counts(): ChainActivityCounts;
  /** Stops after the current step; rejects with the first failure of a step, if any. */
  stop(): Promise<ChainActivityCounts>;
};

export type StartChainActivityParams = {
  rpcUrl: string;
  chainId: number;
  stack: DeployedStack;
  treeDir: string;
  pauseMs?: number;
  /**
   * Mints the claims' reward token to the Distributor first. Needed on a chain without the demo seed,
   * whose campaigns alone (1 token each) do not fund the claims of the growing trees.
   */
  fundDistributor?: boolean;
};

/**
 * Keeps a devnet busy the way production is: every step creates campaigns, every 3rd overrides an
 * earlier one (keeping its start), every 4th publishes a new (growing, above the demo seed's amounts) reward tree to `treeDir` and on chain, then
 * claims against it for one recipient. Runs until `stop`.
 */
export function startChainActivity({
  rpcUrl,
  chainId,
  stack,
  treeDir,
  pauseMs = 100,
  fundDistributor = false,
}: StartChainActivityParams): ChainActivity {
  const target = { rpcUrl, chainId, stack };
  const counts: ChainActivityCounts = { campaigns: 0, overrides: 0, trees: 0, claims: 0 };
  const ids: Hex[] = [];
  /** Start of each created campaign: an override may not move the start of a started campaign. */
  const starts = new Map<Hex, number>();
  const rewardToken = stack.tokens.rewards[0]!.address;
  let stopped = false;

  const step = async (i: number) => {
    const now = await getLatestTimestamp({ rpcUrl });
    const created = await createCampaigns({
      ...target,
      campaigns: Array.from({ length: 1 + (i % 2) }, (_, k) => ({
        rewardToken,
        amount: 10n ** 18n,
        campaignType: 1,
        startTimestamp: now - 60 + k,
        duration: 30 * 86_400 + counts.campaigns + k,
        campaignData: encodeErc20CampaignData({
          targetToken: stack.tokens.targets[(i + k) % stack.tokens.targets.length]!.address,
        }),
      })),
    });
    created.campaignIds.forEach((id, k) => starts.set(id, now - 60 + k));
    ids.push(...created.campaignIds);
    counts.campaigns += created.campaignIds.length;
    if (i % 3 === 2) {
      const campaignId = ids[i % ids.length]!;
      await overrideCampaign({
        ...target,
        campaignId,
        campaign: {
          campaignType: 1,
          startTimestamp: starts.get(campaignId)!,
          duration: 40 * 86_400 + i,
          campaignData: encodeErc20CampaignData({
            targetToken: stack.tokens.targets[(i + 1) % stack.tokens.targets.length]!.address,
          }),
        },
      });
      counts.overrides += 1;
    }
    if (i % 4 === 3) {
      const round = counts.trees + 1;
      const file = buildRewardTreeFile({
        chainId,
        rewards: RECIPIENTS.map((recipient, r) => ({
          recipient,
          token: rewardToken,
          breakdowns: [
            {
              campaignId: ids[(r + round) % ids.length]!,
              reason: 'holder',
              amount: 10n ** 20n * BigInt(round * (r + 1)),
            },
          ],
        })),
      });
      await writeRewardTree(treeDir, file);
      await updateTree({ ...target, root: file.root, mineUntilLive: true });
      counts.trees += 1;
      const tree = buildRewardTree(
        file.rewards.map((e) => ({
          user: e.recipient as Address,
          token: e.token as Address,
          amount: BigInt(e.amount),
        })),
      );
      const leaf = file.rewards[round % file.rewards.length]!;
      await claim({
        ...target,
        claims: [
          {
            user: leaf.recipient as Address,
            token: leaf.token as Address,
            amount: BigInt(leaf.amount),
            proof: tree.proofs.get(`${leaf.recipient}-${leaf.token}`.toLowerCase()) ?? [],
          },
        ],
      });
      counts.claims += 1;
    }
  };

  const loop = (async () => {
    if (fundDistributor) await mintTokens({ ...target, token: rewardToken, to: stack.distributor, amount: 10n ** 30n });
    for (let i = 0; !stopped; i++) {
      await step(i);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  loop.catch(() => {});
  return {
    counts: () => ({ ...counts }),
    async stop() {
      stopped = true;
      await loop;
      return { ...counts };
    },
  };
}
