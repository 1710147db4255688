import { expect } from 'chai';
import {
  createCampaigns,
  encodeErc20CampaignData,
  getLatestTimestamp,
  mine,
  reallocateCampaignRewards,
} from '../../../contracts/actions.js';
import { campaignDbId } from '../../../domain/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const ALICE = '0x00000000000000000000000000000000000a11ce';
const BOB = '0x0000000000000000000000000000000000000b0b';

describe("GET /v4/campaigns/{id} serves the campaign's reallocations", function () {
  let h: Harness;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
  });

  after(async () => h?.close());

  it('lists each CampaignReallocation with the moved addresses, the recipient and its transaction, by internal and by chain id', async function () {
    const { devnet, stack } = h.chains[0]!;
    const target = { rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack };
    const now = await getLatestTimestamp(target);
    const created = await createCampaigns({
      ...target,
      campaigns: [
        {
          rewardToken: stack.tokens.rewards[0]!.address,
          amount: 10n ** 20n,
          campaignType: 1,
          startTimestamp: now + 10,
          duration: 3600,
          campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[0]!.address }),
        },
      ],
    });
    const campaignId = created.campaignIds[0]!;
    const id = campaignDbId(31337, campaignId);
    for (const job of ['blocks', 'campaigns', 'tokens', 'publish'])
      expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    expect((await h.request().get(`/v4/campaigns/${id}`).expect(200)).body.reallocations).to.deep.equal([]);

    await mine({ rpcUrl: devnet.rpcUrl, timestamp: now + 10 + 3600 });
    const tx = await reallocateCampaignRewards({ ...target, campaignId, froms: [ALICE, BOB], to: stack.deployer });
    for (const job of ['blocks', 'campaigns', 'publish']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    const block = (
      await h.deps.pg.query('SELECT timestamp::int AS t FROM blocks WHERE chain_id = 31337 AND number = $1', [
        Number(tx.blockNumber),
      ])
    ).rows[0];
    const expected = [
      {
        from: [ALICE, BOB],
        to: stack.deployer.toLowerCase(),
        txHash: tx.txHash.toLowerCase(),
        blockNumber: Number(tx.blockNumber),
        timestamp: block.t,
      },
    ];
    expect((await h.request().get(`/v4/campaigns/${id}`).expect(200)).body.reallocations).to.deep.equal(expected);
    expect((await h.request().get(`/v4/campaigns/31337-${campaignId}`).expect(200)).body.reallocations).to.deep.equal(
      expected,
    );
  });
});
