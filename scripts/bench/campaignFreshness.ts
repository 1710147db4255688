/**
 * Event → searchable of one chain's campaigns through the API (scripts/bench/rewards.ts): a campaign is
 * created on the chain and timed from its mined receipt until `/v4/campaigns?chainId&campaignIds` lists
 * it, as a wallet or a front end would see it.
 */
import { createCampaigns, getLatestTimestamp } from '../../contracts/actions.js';
import type { DeployedStack } from '../../contracts/deploy.js';
import { benchCampaign } from './campaignDevnet.js';

export type FreshnessTarget = { rpcUrl: string; chainId: number; stack: DeployedStack; apiUrl: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let created = 0;

/**
 * Creates one ERC20 campaign on the target chain and polls the API every `pollMs` until it is listed.
 * @returns seconds from the mined receipt to the first answer listing it.
 * @throws Error when it is not listed within `timeoutMs`.
 */
export async function campaignFreshness(target: FreshnessTarget, timeoutMs = 300_000, pollMs = 25): Promise<number> {
  const { rpcUrl, chainId, stack, apiUrl } = target;
  const now = await getLatestTimestamp({ rpcUrl });
  const campaign = benchCampaign(stack, now + 3600 + created++);
  const {
    campaignIds: [id],
  } = await createCampaigns({ rpcUrl, chainId, stack, campaigns: [campaign] });
  const minedAt = performance.now();
  const url = `${apiUrl}/v4/campaigns?chainId=${chainId}&campaignIds=${id}`;
  for (;;) {
    const res = await fetch(url);
    const body = (await res.json()) as unknown;
    if (res.ok && Array.isArray(body) && body.length > 0) return (performance.now() - minedAt) / 1000;
    if (performance.now() - minedAt > timeoutMs)
      throw new Error(`campaign ${id} of chain ${chainId} not listed by /v4/campaigns within ${timeoutMs / 1000} s`);
    await sleep(pollMs);
  }
}

/** Samples `campaignFreshness` one campaign after another while `running()` holds (at least `atLeast` samples). */
export async function sampleFreshness(target: FreshnessTarget, running: () => boolean, atLeast = 0): Promise<number[]> {
  const seconds: number[] = [];
  while (running() || seconds.length < atLeast) seconds.push(await campaignFreshness(target));
  return seconds;
}
