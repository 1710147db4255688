import { createCampaigns, encodeClammCampaignData, encodeErc20CampaignData, getLatestTimestamp } from '../contracts/actions.js';
import type { DeployedStack } from '../contracts/deploy.js';

const HOUR = 3600;
const DAY = 24 * HOUR;

export type SeedDemoParams = { rpcUrl: string; chainId: number; stack: DeployedStack };

/**
 * Creates a small realistic set of demo campaigns on one devnet: ERC20-holding and CLAMM-pool
 * campaigns, rewarded in each reward token, live, past and upcoming.
 * @returns the on-chain campaign ids created.
 */
export async function seedDemoCampaigns({ rpcUrl, chainId, stack }: SeedDemoParams): Promise<string[]> {
  const now = await getLatestTimestamp({ rpcUrl });
  const [stTst, tlp] = stack.tokens.targets;
  const holding = encodeErc20CampaignData({ targetToken: stTst!.address, url: 'https://demo.invalid/stake' });
  const pool = encodeClammCampaignData({ pool: tlp!.address, weightFees: 2000, weightToken0: 4000, weightToken1: 4000, isOutOfRangeIncentivized: false });
  const schedule = [
    { start: now - 2 * HOUR, duration: 14 * DAY },
    { start: now - 20 * DAY, duration: 7 * DAY },
    { start: now + 3 * DAY, duration: 10 * DAY },
    { start: now - 1 * DAY, duration: 30 * DAY },
  ];
  const campaigns = stack.tokens.rewards.flatMap((token, t) =>
    schedule.map((s, i) => ({
      rewardToken: token.address,
      amount: 10n ** BigInt(token.decimals) * BigInt(1_000 * (t + 1) * (i + 2)),
      campaignType: i % 2 === 0 ? 1 : 2,
      startTimestamp: s.start + t, // distinct starts: amount is not part of the campaign id
      duration: s.duration,
      campaignData: i % 2 === 0 ? holding : pool,
    })),
  );
  const { campaignIds } = await createCampaigns({ rpcUrl, chainId, stack, campaigns });
  return campaignIds;
}
