import { expect } from 'chai';
import { encodeClammCampaignData, encodeErc20CampaignData } from '../../../../../../contracts/campaignData.js';
import { computeCampaignId } from '../../../../../../domain/campaignId.js';
import { buildCampaigns, resolveKind } from '../../../../../../api/routes/campaigns/payload/buildCampaigns.js';
import { feeRate } from '../../../../../../api/routes/campaigns/payload/handlers.js';
import { toSafePayload } from '../../../../../../api/routes/campaigns/payload/safePayload.js';

const creator = '0x1111111111111111111111111111111111111111' as const;
const token = '0x2222222222222222222222222222222222222222' as const;
const target = '0x3333333333333333333333333333333333333333' as const;
const body = (campaignsParams: Record<string, { amount: string; [key: string]: unknown }[]>) => ({
  creatorAddress: creator,
  rewardToken: token,
  distributionChainId: 1,
  startTimestamp: 1_700_000_000,
  endTimestamp: 1_700_086_400,
  campaignsParams,
});

describe('api/routes/campaigns/payload', () => {
  it('resolves type names, numbers and template ids', () => {
    expect(resolveKind('ERC20')).to.include({ campaignType: 1, typeName: 'ERC20' });
    expect(resolveKind('erc20')).to.include({ campaignType: 1 });
    expect(resolveKind('2')).to.include({ typeName: 'CLAMM' });
    expect(resolveKind('clamm-pool')).to.include({ campaignType: 2 });
    expect(resolveKind('0')).to.equal(null);
    expect(resolveKind('NOPE')).to.equal(null);
  });

  it('encodes campaign data like the shared encoders and predicts the campaign id (documented vector)', () => {
    const { campaigns, errors } = buildCampaigns(body({ ERC20: [{ amount: '10', targetToken: target }] }));
    expect(errors).to.deep.equal([]);
    expect(campaigns[0]!.campaignData).to.equal(encodeErc20CampaignData({ targetToken: target }));
    expect(campaigns[0]!.campaignId).to.equal('0x333b5fc48513d5a8c20cd3dc29bcdb344da473474fac39a5d3799eff7f8b4163');
    const clamm = buildCampaigns(body({ 'clamm-pool': [{ amount: '10', pool: target }] })).campaigns[0]!;
    expect(clamm.campaignData).to.equal(
      encodeClammCampaignData({
        pool: target,
        weightFees: 2000,
        weightToken0: 4000,
        weightToken1: 4000,
        isOutOfRangeIncentivized: false,
      }),
    );
    expect(clamm.campaignId).to.equal(
      computeCampaignId({
        chainId: 1,
        creator,
        rewardToken: token,
        campaignType: 2,
        startTimestamp: 1_700_000_000,
        duration: 86_400,
        campaignData: clamm.campaignData,
      }),
    );
  });

  it('names each bad field and refuses duplicate ids within a batch', () => {
    expect(buildCampaigns(body({ ERC20: [{ amount: '1' }] })).errors.map((e) => e.field)).to.deep.equal([
      'campaignsParams.ERC20.0.targetToken',
    ]);
    const dup = buildCampaigns(
      body({
        ERC20: [
          { amount: '1', targetToken: target },
          { amount: '2', targetToken: target },
        ],
      }),
    );
    expect(dup.errors.map((e) => e.field)).to.deep.equal(['campaignsParams']);
  });

  it('takes the type fee, a waiver (1) or the default fee (0)', () => {
    expect(feeRate(30_000_000n, 0n)).to.equal(30_000_000n);
    expect(feeRate(30_000_000n, 1n)).to.equal(0n);
    expect(feeRate(30_000_000n, 10_000_000n)).to.equal(10_000_000n);
    // The sender's rebate (docs/contracts.md#fees-and-rebates): base × (1e9 − rebate) / 1e9, rounded down.
    expect(feeRate(30_000_000n, 0n, 500_000_000n)).to.equal(15_000_000n);
    expect(feeRate(30_000_000n, 0n, 1_000_000_000n)).to.equal(0n);
    expect(feeRate(30_000_001n, 0n, 333_333_333n)).to.equal(20_000_000n);
  });

  it('writes a Safe batch: approve the total, then one createCampaign per campaign with zero ids', () => {
    const { campaigns } = buildCampaigns(body({ ERC20: [{ amount: '10', targetToken: target }] }));
    const safe = toSafePayload({
      chainId: 1,
      distributionCreator: target,
      rewardToken: token,
      total: 10n,
      campaigns,
      createdAt: 0,
    });
    expect(safe).to.include({ version: '1.0', chainId: '1' });
    expect(safe.transactions[0]!.contractInputsValues).to.deep.equal({ spender: target, amount: '10' });
    const tuple = JSON.parse((safe.transactions[1]!.contractInputsValues as { newCampaign: string }).newCampaign);
    expect(tuple).to.deep.equal([
      `0x${'0'.repeat(64)}`,
      creator,
      token,
      '10',
      1,
      1_700_000_000,
      86_400,
      campaigns[0]!.campaignData,
    ]);
  });
});
