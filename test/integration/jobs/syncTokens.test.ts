import { expect } from 'chai';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { campaignDbId } from '../../../domain/ids.js';
import { NATIVE_TOKEN_ADDRESS } from '../../../indexer/store/tokens.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;

describe('jobs/syncTokens and sub-campaign links', function () {
  let h: Harness;
  let parent: `0x${string}`;
  let child: `0x${string}`;
  let grandchild: `0x${string}`;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    const rpcUrl = devnet.rpcUrl;
    const now = await getLatestTimestamp({ rpcUrl });
    const target = stack.tokens.targets[0]!.address;
    const base = { campaignType: 1, duration: 7 * DAY };
    const make = async (rewardIndex: number, start: number, extraData?: `0x${string}`) =>
      (
        await createCampaigns({
          rpcUrl,
          chainId: devnet.chainId,
          stack,
          campaigns: [
            {
              ...base,
              rewardToken: stack.tokens.rewards[rewardIndex]!.address,
              amount: 1000n * 10n ** BigInt(stack.tokens.rewards[rewardIndex]!.decimals),
              startTimestamp: start,
              campaignData: encodeErc20CampaignData({ targetToken: target, ...(extraData ? { extraData } : {}) }),
            },
          ],
        })
      ).campaignIds[0]!;
    parent = await make(0, now + DAY);
    child = await make(2, now + DAY + 1, parent);
    grandchild = await make(1, now + DAY + 2, child);
    for (const job of ['blocks', 'campaigns', 'tokens', 'publish'])
      expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
  });

  after(async () => h?.close());

  it('stores the native token and applies the configured flags', async function () {
    const { rows } = await h.apiPg.query(
      `SELECT address, symbol, decimals, is_native, verified, type, is_stablecoin, display_symbol FROM tokens WHERE chain_id = 31337 ORDER BY symbol`,
    );
    const [rwd, usdc, pts] = h.chains[0]!.stack.tokens.rewards;
    const by = (address: string) => rows.find((r) => r.address === address.toLowerCase());
    expect(by(NATIVE_TOKEN_ADDRESS)).to.include({ symbol: 'ETH', decimals: 18, is_native: true, verified: true });
    expect(by(rwd!.address)).to.include({ symbol: 'RWD', verified: true, type: 'TOKEN' });
    expect(by(usdc!.address)).to.include({
      symbol: 'USDCx',
      verified: true,
      is_stablecoin: true,
      display_symbol: 'USDC',
    });
    expect(by(pts!.address)).to.include({ symbol: 'PTS', type: 'POINT', verified: false });
    expect(by(h.chains[0]!.stack.tokens.targets[0]!.address)).to.include({ symbol: 'stTST' });
  });

  it('serves the flags in campaign documents once the tokens job re-projected them', async function () {
    const res = await h.request().get('/v4/campaigns').query({ items: 100 }).expect(200);
    const pointCampaign = res.body.find((c: { campaignId: string }) => c.campaignId === child.toLowerCase());
    expect(pointCampaign.rewardToken).to.include({ symbol: 'PTS', type: 'POINT' });
    const usdcCampaign = res.body.find((c: { campaignId: string }) => c.campaignId === grandchild.toLowerCase());
    expect(usdcCampaign.rewardToken).to.include({ symbol: 'USDCx', displaySymbol: 'USDC', verified: true });
  });

  it('links sub-campaigns to their parent and root', async function () {
    const res = await h.request().get('/v4/campaigns').query({ items: 100 }).expect(200);
    const find = (id: string) => res.body.find((c: { campaignId: string }) => c.campaignId === id.toLowerCase());
    const [p, c, g] = [parent, child, grandchild].map((id) => campaignDbId(31337, id));
    expect(find(parent)).to.include({ parentCampaignId: null, rootCampaignId: null });
    expect(find(parent).childCampaignIds).to.deep.equal([c]);
    expect(find(child)).to.include({ parentCampaignId: p, rootCampaignId: p });
    expect(find(child).childCampaignIds).to.deep.equal([g]);
    expect(find(grandchild)).to.include({ parentCampaignId: c, rootCampaignId: p });
    expect(find(grandchild).childCampaignIds).to.deep.equal([]);
  });

  it('re-projects documents when an operator changes a token flag', async function () {
    const pts = h.chains[0]!.stack.tokens.rewards[2]!.address;
    const deps = {
      ...h.deps,
      config: {
        ...h.config,
        chains: h.config.chains.map((c) => ({
          ...c,
          tokens: c.tokens.map((t) =>
            t.address.toLowerCase() === pts.toLowerCase() ? { ...t, type: 'PRETGE' as const } : t,
          ),
        })),
      },
    };
    const { runJob } = await import('../../../jobs/runJob.js');
    const { syncTokens } = await import('../../../jobs/syncTokens.js');
    const run = await runJob(syncTokens, deps);
    expect(run.status === 'success' && run.result.counts['changed']).to.equal(1);
    await h.runJob('publish');
    await h.refresh();
    const res = await h.request().get('/v4/campaigns').query({ items: 100 }).expect(200);
    expect(
      res.body.find((c: { campaignId: string }) => c.campaignId === child.toLowerCase()).rewardToken.type,
    ).to.equal('PRETGE');
  });
});
