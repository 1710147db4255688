import { expect } from 'chai';
import type { CampaignVersionRow } from '../../../../../api/routes/overrides/repo.js';
import { previousConfigs } from '../../../../../api/routes/overrides/serialize.js';

const row = (key: string, start: number, end: number, effectiveAt: number): CampaignVersionRow => ({
  event_key: key,
  campaign_db_id: '42',
  campaign_id: `0x${'a'.repeat(64)}`,
  distribution_chain_id: 1,
  compute_chain_id: 1,
  creator: '0xc',
  reward_token: '0xr',
  amount: '100',
  campaign_type: 1,
  start_timestamp: String(start),
  end_timestamp: String(end),
  campaign_data: '0x',
  main_parameter: '0xt',
  opportunity_id: 'opp1',
  params: { targetToken: '0xt', amount: 'ignored' },
  effective_at: String(effectiveAt),
  opp_chain_id: 1,
  opp_type: 'ERC20',
  opp_identifier: '0x1234567890abcdef',
  opp_action: 'HOLD',
  target_symbol: 'stTST',
  underlying: null,
  chain_name: 'Ethereum',
});

describe('overrides previousConfigs', () => {
  it('drops the current (last) configuration and keeps the older ones in order', () => {
    const out = previousConfigs([row('1-0xa-0', 10, 20, 5), row('1-0xb-1', 10, 30, 7), row('1-0xc-2', 10, 40, 9)]);
    expect(out.map((c) => c.id)).to.deep.equal(['1-0xa-0', '1-0xb-1']);
    expect(out.map((c) => c.overrideTimestamp)).to.deep.equal([5, 7]);
  });

  it('is empty for a campaign never overridden', () => {
    expect(previousConfigs([row('1-0xa-0', 10, 20, 5)])).to.deep.equal([]);
  });

  it('builds the config (common fields win over decoded ones) and the named Opportunity', () => {
    const [c] = previousConfigs([row('k', 10, 25, 5), row('k2', 10, 30, 6)]);
    expect(c!.config).to.include({
      targetToken: '0xt',
      amount: '100',
      startTimestamp: 10,
      endTimestamp: 25,
      duration: 15,
      campaignType: 1,
    });
    expect(c!.Opportunity).to.deep.equal({
      id: 'opp1',
      chainId: 1,
      type: 'ERC20',
      identifier: '0x1234567890abcdef',
      name: 'Hold stTST',
      description: 'Earn rewards on Ethereum: hold stTST.',
    });
  });

  it('names a pool opportunity after the tokens it stands on, as its document does (#42)', () => {
    const pool = (key: string): CampaignVersionRow => ({
      ...row(key, 10, 25, 5),
      opp_type: 'CLAMM',
      opp_identifier: `0x${'3'.repeat(40)}`,
      opp_action: 'POOL',
      target_symbol: null,
      underlying: {
        tokens: [
          { address: '0xa', symbol: 'USDC' },
          { address: '0xb', symbol: 'WETH' },
        ],
        fee: 500,
        lltv: null,
      },
    });
    const [c] = previousConfigs([pool('k'), pool('k2')]);
    expect(c!.Opportunity).to.include({
      name: 'Provide liquidity to USDC-WETH 0.05%',
      description: 'Earn rewards on Ethereum: provide liquidity to USDC-WETH 0.05%.',
    });
  });
});
