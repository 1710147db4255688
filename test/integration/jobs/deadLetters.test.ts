import { expect } from 'chai';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { indexNames } from '../../../internal/es.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;

describe('search projection: documents Elasticsearch refuses for good', function () {
  let h: Harness;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    const [stTst, tlp] = stack.tokens.targets;
    const campaign = (target: `0x${string}`, start: number) => ({
      rewardToken: stack.tokens.rewards[0]!.address,
      amount: 10n ** 18n,
      campaignType: 1,
      startTimestamp: start,
      duration: DAY,
      campaignData: encodeErc20CampaignData({ targetToken: target }),
    });
    // stTST gets two disjoint windows (two nested documents), TLP one.
    await createCampaigns({
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [
        campaign(stTst!.address, now + DAY),
        campaign(stTst!.address, now + 10 * DAY),
        campaign(tlp!.address, now + DAY),
      ],
    });
    // This index refuses any document with more than one nested object: the stTST opportunity.
    await h.deps.es.indices.putSettings({
      index: indexNames(h.config.esIndexPrefix, 'opportunities').write,
      settings: { 'index.mapping.nested_objects.limit': 1 },
    });
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
  });

  after(async () => h?.close());

  it('dead-letters the refused document with its reason and keeps publishing the others', async function () {
    const { rows } = await h.apiPg.query<{ entity: string; entity_id: string; status: number; reason: string }>(
      'SELECT entity, entity_id, status, reason FROM search_dead_letters',
    );
    const stTstOpportunity = (
      await h.apiPg.query<{ id: string }>('SELECT id FROM opportunities WHERE identifier = $1', [
        h.chains[0]!.stack.tokens.targets[0]!.address.toLowerCase(),
      ])
    ).rows[0]!.id;
    expect(rows.map((r) => [r.entity, r.entity_id, r.status])).to.deep.equal([['opportunity', stTstOpportunity, 400]]);
    expect(rows[0]!.reason).to.match(/nested/i);
    expect(
      Number((await h.apiPg.query<{ n: string }>('SELECT count(*) AS n FROM search_outbox')).rows[0]!.n),
      'the outbox is not blocked',
    ).to.equal(0);
    expect((await h.deps.es.count({ index: indexNames(h.config.esIndexPrefix, 'campaigns').read })).count).to.equal(3);
    expect((await h.deps.es.count({ index: indexNames(h.config.esIndexPrefix, 'opportunities').read })).count).to.equal(
      1,
    );
  });
});
