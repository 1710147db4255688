import { expect } from 'chai';
import { erc20Abi, parseEventLogs } from 'viem';
import { getLatestTimestamp } from '../../../contracts/actions.js';
import { distributionCreatorAbi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients, HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { campaignDbId } from '../../../domain/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;

describe('POST /v4/campaigns/generate-payload', function () {
  let h: Harness;
  let now: number;
  let body: Record<string, unknown>;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    body = {
      creatorAddress: stack.deployer,
      rewardToken: stack.tokens.rewards[0]!.address,
      distributionChainId: '31337',
      startTimestamp: String(now + DAY),
      endTimestamp: now + 8 * DAY,
      campaignsParams: {
        ERC20: [
          {
            amount: '7000000000000000000000',
            targetToken: stack.tokens.targets[0]!.address,
            url: 'https://demo.invalid',
          },
        ],
        'clamm-pool': [{ amount: '1000000000000000000000', pool: stack.tokens.targets[1]!.address }],
        7: [
          { amount: '500000000000000000000', market: stack.tokens.targets[0]!.address, startTimestamp: now + 2 * DAY },
        ],
      },
    };
  });

  after(async () => h?.close());

  it('builds a transaction that, sent on the devnet, creates exactly the predicted campaigns, which the indexer serves', async function () {
    const res = await h.request().post('/v4/campaigns/generate-payload').send(body).expect(200);
    const { devnet, stack } = h.chains[0]!;
    expect(res.body).to.include({ chainId: 31337, distributionCreator: stack.distributionCreator, value: '0' });
    expect(res.body.data.startsWith('0x4129fe4c'), 'createCampaigns selector').to.equal(true);
    expect(res.body.approval).to.include({
      token: stack.tokens.rewards[0]!.address,
      spender: stack.distributionCreator,
      amount: '8500000000000000000000',
      sufficient: true,
    });
    expect(res.body.campaigns).to.have.length(3);
    expect(res.body.campaigns.map((c: { campaignTypeName: string }) => c.campaignTypeName).sort()).to.deep.equal([
      'CLAMM',
      'ERC20',
      'MORPHO',
    ]);
    expect(res.body.campaigns.find((c: { campaignTypeName: string }) => c.campaignTypeName === 'ERC20')).to.include({
      amount: '7000000000000000000000',
      fee: '210000000000000000000',
      netAmount: '6790000000000000000000',
      feeRate: 0.03,
    });
    expect(res.body.simulation).to.deep.equal({ performed: true });
    expect(
      res.body.safe.transactions.map((t: { contractMethod: { name: string } }) => t.contractMethod.name),
    ).to.deep.equal(['approve', 'createCampaign', 'createCampaign', 'createCampaign']);
    expect(JSON.parse(res.body.safe.transactions[1].contractInputsValues.newCampaign)).to.have.length(8);

    const { walletClient, publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const hash = await walletClient.sendTransaction({ to: res.body.to, data: res.body.data });
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).to.equal('success');
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status).to.equal('success');
    await h.refresh();
    const served = (await h.request().get('/v4/campaigns').query({ items: 100 }).expect(200)).body as {
      id: string;
      campaignId: string;
      amount: string;
      type: string;
    }[];
    const predicted = res.body.campaigns as { campaignId: string; netAmount: string; campaignTypeName: string }[];
    expect(served.map((c) => c.campaignId).sort()).to.deep.equal(
      predicted.map((c) => c.campaignId.toLowerCase()).sort(),
    );
    for (const p of predicted) {
      const c = served.find((s) => s.campaignId === p.campaignId.toLowerCase())!;
      expect(c.id).to.equal(campaignDbId(31337, p.campaignId));
      expect(c.amount).to.equal(p.netAmount);
      expect(c.type).to.equal(p.campaignTypeName);
    }
    // The same body again: the ids exist now, a 400 says so instead of a payload that would revert.
    const again = await h.request().post('/v4/campaigns/generate-payload').send(body).expect(400);
    expect(again.body.errors.map((e: { field: string }) => e.field)).to.include('campaignsParams.ERC20.0');
  });

  it('simulates before the approval with the approval assumed (state override), leaving the chain untouched', async function () {
    const { devnet, stack } = h.chains[0]!;
    const { walletClient, publicClient } = createDevnetClients({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      privateKey: HARDHAT_TEST_KEYS[2],
    });
    const creator = walletClient.account.address;
    const hash = await walletClient.writeContract({
      address: stack.distributionCreator,
      abi: distributionCreatorAbi,
      functionName: 'acceptConditions',
    });
    expect((await publicClient.waitForTransactionReceipt({ hash })).status).to.equal('success');
    const res = await h
      .request()
      .post('/v4/campaigns/generate-payload')
      .send({ ...body, creatorAddress: creator, startTimestamp: now + 40 * DAY, endTimestamp: now + 41 * DAY })
      .expect(200);
    expect(res.body.approval).to.include({ currentAllowance: '0', sufficient: false });
    expect(res.body.simulation).to.deep.equal({ performed: true, assumedApproval: true });
    const allowance = await publicClient.readContract({
      address: stack.tokens.rewards[0]!.address,
      abi: erc20Abi,
      functionName: 'allowance',
      args: [creator, stack.distributionCreator],
    });
    expect(allowance).to.equal(0n);
  });

  it('answers 400 with the revert reason when the simulation with the assumed approval reverts (creator has not accepted the conditions)', async function () {
    const { devnet, stack } = h.chains[0]!;
    const { walletClient, publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const setMessage = async (message: string) => {
      const hash = await walletClient.writeContract({
        address: stack.distributionCreator,
        abi: distributionCreatorAbi,
        functionName: 'setMessage',
        args: [message],
      });
      expect((await publicClient.waitForTransactionReceipt({ hash })).status).to.equal('success');
    };
    await setMessage('terms of the campaign creators, v2');
    try {
      const res = await h
        .request()
        .post('/v4/campaigns/generate-payload')
        .send({
          ...body,
          creatorAddress: '0x000000000000000000000000000000000000dEaD',
          startTimestamp: now + 40 * DAY,
          endTimestamp: now + 41 * DAY,
        })
        .expect(400);
      expect(res.body.errors, JSON.stringify(res.body.errors)).to.deep.include({
        field: 'campaignsParams',
        message:
          'the creation would revert: the creator has not accepted the conditions yet (acceptConditions on the DistributionCreator)',
      });
    } finally {
      await setMessage('');
    }
  });

  it('checks and echoes distribution parameters (the ratchet settings) per campaign', async function () {
    const parameters = {
      distributionMethod: 'SOFR_SPREAD_RATCHET',
      ratchet: { spread: 2.5, period: 7 * DAY, curve: 'BOOST_GAP', tiers: [{ minTvl: 1000, boost: 1 }] },
    };
    const res = await h
      .request()
      .post('/v4/campaigns/generate-payload')
      .send({
        ...body,
        startTimestamp: now + 22 * DAY,
        endTimestamp: now + 23 * DAY,
        campaignsParams: {
          ERC20: [
            {
              amount: '1000000000000000000',
              targetToken: h.chains[0]!.stack.tokens.targets[0]!.address,
              distributionMethodParameters: parameters,
            },
          ],
        },
      })
      .expect(200);
    expect(res.body.campaigns[0].distributionMethodParameters).to.deep.equal(parameters);
  });

  it('accepts the body as a form with campaignsParams as JSON text', async function () {
    const form = {
      ...body,
      startTimestamp: String(now + 20 * DAY),
      endTimestamp: String(now + 21 * DAY),
      campaignsParams: JSON.stringify({
        ERC20: [{ amount: '1000000000000000000', targetToken: h.chains[0]!.stack.tokens.targets[0]!.address }],
      }),
    };
    const res = await h.request().post('/v4/campaigns/generate-payload').type('form').send(form).expect(200);
    expect(res.body.campaigns).to.have.length(1);
  });

  const cases: [string, (b: Record<string, unknown>) => Record<string, unknown>, string][] = [
    [
      'a token that is not whitelisted',
      (b) => ({ ...b, rewardToken: '0x1111111111111111111111111111111111111111' }),
      'rewardToken',
    ],
    [
      'an amount below the per-hour minimum',
      (b) => ({
        ...b,
        campaignsParams: { ERC20: [{ amount: '1000', targetToken: '0x2222222222222222222222222222222222222222' }] },
      }),
      'campaignsParams.ERC20.0.amount',
    ],
    [
      'a top-level end before the start (issue 31: named where it was sent)',
      (b) => ({ ...b, endTimestamp: Number(b['startTimestamp']) - 1 }),
      'endTimestamp',
    ],
    [
      "a campaign's own end before the start",
      (b) => ({
        ...b,
        campaignsParams: {
          ERC20: [
            {
              ...(b['campaignsParams'] as { ERC20: Record<string, unknown>[] }).ERC20[0],
              endTimestamp: Number(b['startTimestamp']) - 1,
            },
          ],
        },
      }),
      'campaignsParams.ERC20.0.endTimestamp',
    ],
    ['an unknown chain', (b) => ({ ...b, distributionChainId: 1 }), 'distributionChainId'],
    [
      'an amount that is not digits',
      (b) => ({
        ...b,
        campaignsParams: { ERC20: [{ amount: '1e18', targetToken: '0x2222222222222222222222222222222222222222' }] },
      }),
      'campaignsParams.ERC20.0.amount',
    ],
    [
      'an unknown campaign type',
      (b) => ({ ...b, campaignsParams: { NOPE: [{ amount: '1' }] } }),
      'campaignsParams.NOPE',
    ],
    [
      'a parameter the type does not have',
      (b) => ({
        ...b,
        campaignsParams: {
          ERC20: [
            { amount: '10000000000000000000', targetToken: '0x2222222222222222222222222222222222222222', poolFee: 3 },
          ],
        },
      }),
      'campaignsParams.ERC20.0.poolFee',
    ],
    [
      'a missing required parameter',
      (b) => ({
        ...b,
        campaignsParams: {
          CLAMM: [
            {
              amount: '10000000000000000000',
              weightFees: 1,
              weightToken0: 1,
              weightToken1: 1,
              isOutOfRangeIncentivized: 0,
            },
          ],
        },
      }),
      'campaignsParams.CLAMM.0.pool',
    ],
    [
      'ratchet settings out of bounds',
      (b) => ({
        ...b,
        campaignsParams: {
          ERC20: [
            {
              amount: '10000000000000000000',
              targetToken: '0x2222222222222222222222222222222222222222',
              distributionMethodParameters: { distributionMethod: 'SOFR_SPREAD_RATCHET', ratchet: { spread: -1 } },
            },
          ],
        },
      }),
      'campaignsParams.ERC20.0.distributionMethodParameters.ratchet.spread',
    ],
    [
      'a ratchet tier without boost',
      (b) => ({
        ...b,
        campaignsParams: {
          ERC20: [
            {
              amount: '10000000000000000000',
              targetToken: '0x2222222222222222222222222222222222222222',
              distributionMethodParameters: {
                distributionMethod: 'SOFR_SPREAD_RATCHET',
                ratchet: { tiers: [{ minTvl: 1 }] },
              },
            },
          ],
        },
      }),
      'campaignsParams.ERC20.0.distributionMethodParameters.ratchet.tiers.0.boost',
    ],
    [
      'an unknown ratchet setting',
      (b) => ({
        ...b,
        campaignsParams: {
          ERC20: [
            {
              amount: '10000000000000000000',
              targetToken: '0x2222222222222222222222222222222222222222',
              distributionMethodParameters: { distributionMethod: 'SOFR_SPREAD_RATCHET', ratchet: { speed: 1 } },
            },
          ],
        },
      }),
      'campaignsParams.ERC20.0.distributionMethodParameters.ratchet.speed',
    ],
    [
      'an unknown distribution method',
      (b) => ({
        ...b,
        campaignsParams: {
          ERC20: [
            {
              amount: '10000000000000000000',
              targetToken: '0x2222222222222222222222222222222222222222',
              distributionMethodParameters: { distributionMethod: 'MAGIC' },
            },
          ],
        },
      }),
      'campaignsParams.ERC20.0.distributionMethodParameters.distributionMethod',
    ],
    [
      'a missing top-level field',
      (b) => {
        const { creatorAddress: _, ...rest } = b;
        return rest;
      },
      'creatorAddress',
    ],
  ];
  for (const [title, change, field] of cases) {
    it(`answers 400 naming ${field} for ${title}`, async function () {
      const res = await h
        .request()
        .post('/v4/campaigns/generate-payload')
        .send(change({ ...body, startTimestamp: now + 30 * DAY, endTimestamp: now + 31 * DAY }))
        .expect(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).to.include(field);
    });
  }

  it("predicts the fee exactly with the sender's fee rebate read on chain: a 50 % rebate takes 1.5 % and the contract creates exactly the predicted net", async function () {
    const { devnet, stack } = h.chains[0]!;
    const { walletClient, publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const setRebate = async (rebate: bigint) =>
      publicClient.waitForTransactionReceipt({
        hash: await walletClient.writeContract({
          address: stack.distributionCreator,
          abi: distributionCreatorAbi,
          functionName: 'setUserFeeRebate',
          args: [stack.deployer, rebate],
        }),
      });
    await setRebate(500_000_000n);
    try {
      const rebated = {
        ...body,
        startTimestamp: String(now + 3 * DAY),
        campaignsParams: {
          ERC20: [{ amount: '1000000000000000000000', targetToken: stack.tokens.targets[0]!.address }],
        },
      };
      const res = await h.request().post('/v4/campaigns/generate-payload').send(rebated).expect(200);
      expect(res.body.campaigns[0]).to.include({
        amount: '1000000000000000000000',
        fee: '15000000000000000000',
        netAmount: '985000000000000000000',
        feeRate: 0.015,
      });
      const hash = await walletClient.sendTransaction({ to: res.body.to, data: res.body.data });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      const [created] = parseEventLogs({ abi: distributionCreatorAbi, eventName: 'NewCampaign', logs: receipt.logs });
      expect(created!.args.campaign.amount.toString(), 'the contract created the predicted net').to.equal(
        res.body.campaigns[0].netAmount,
      );
      expect(created!.args.campaign.campaignId.toLowerCase()).to.equal(res.body.campaigns[0].campaignId.toLowerCase());
    } finally {
      await setRebate(0n);
    }
  });
});
