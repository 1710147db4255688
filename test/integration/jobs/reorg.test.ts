import { expect } from 'chai';
import type { Hex } from 'viem';
import {
  createCampaigns,
  encodeClammCampaignData,
  encodeErc20CampaignData,
  getLatestTimestamp,
  mine,
  overrideCampaign,
  revert,
  snapshot,
} from '../../../contracts/actions.js';
import { jsonRpc } from '../../../contracts/devnet.js';
import { distributionCreatorAbi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import { campaignDbId } from '../../../domain/ids.js';
import { indexNames } from '../../../internal/es.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const DAY = 86_400;

describe('reorgs: a devnet snapshot/revert replaces indexed blocks with different campaigns', function () {
  let h: Harness;
  let rpcUrl: string;
  let kept: Hex;

  const campaign = (start: number, targetIndex = 0) => {
    const { stack } = h.chains[0]!;
    return {
      rewardToken: stack.tokens.rewards[0]!.address,
      amount: 10n ** 18n,
      campaignType: 1,
      startTimestamp: start,
      duration: 7 * DAY,
      campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[targetIndex]!.address }),
    };
  };
  const create = async (...campaigns: ReturnType<typeof campaign>[]) => {
    const { devnet, stack } = h.chains[0]!;
    return (await createCampaigns({ rpcUrl, chainId: devnet.chainId, stack, campaigns })).campaignIds;
  };
  const indexAll = async () => {
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
  };
  const pgCampaigns = async () =>
    (await h.apiPg.query<{ campaign_id: string }>('SELECT campaign_id FROM campaigns ORDER BY campaign_id')).rows.map(
      (r) => r.campaign_id,
    );
  const esIds = async (family: 'campaigns' | 'opportunities') =>
    (
      await h.deps.es.search({ index: indexNames(h.config.esIndexPrefix, family).read, size: 100, _source: false })
    ).hits.hits
      .map((x) => x._id!)
      .sort();

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    rpcUrl = h.chains[0]!.devnet.rpcUrl;
    const now = await getLatestTimestamp({ rpcUrl });
    kept = (await create(campaign(now + DAY)))[0]!;
    await indexAll();
  });

  after(async () => h?.close());

  it('rolls back campaigns and overrides of orphaned blocks and indexes the new branch, in PostgreSQL and Elasticsearch', async function () {
    const { devnet, stack } = h.chains[0]!;
    const fork = await snapshot({ rpcUrl });
    const now = await getLatestTimestamp({ rpcUrl });
    const orphaned = await create(campaign(now + 2 * DAY), campaign(now + 3 * DAY, 1));
    const pool = encodeClammCampaignData({
      pool: stack.tokens.targets[1]!.address,
      weightFees: 1000,
      weightToken0: 4500,
      weightToken1: 4500,
      isOutOfRangeIncentivized: false,
    });
    await overrideCampaign({
      rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaignId: kept!,
      campaign: { campaignType: 2, startTimestamp: now + DAY, duration: 9 * DAY, campaignData: pool },
    });
    await indexAll();
    expect(await pgCampaigns()).to.deep.equal([kept!, ...orphaned].map((id) => id.toLowerCase()).sort());
    const keptDoc = (await h.request().get('/v4/campaigns').query({ items: 100 })).body.find(
      (c: { campaignId: string }) => c.campaignId === kept!.toLowerCase(),
    );
    expect(keptDoc).to.include({ type: 'CLAMM', hasOverrides: true });

    // The orphaned branch disappears; a longer branch with another campaign replaces it.
    expect(await revert({ rpcUrl, id: fork })).to.equal(true);
    const [replacement] = await create(campaign(now + 5 * DAY, 1));
    await mine({ rpcUrl, blocks: 5 });

    const blocks = await h.runJob('blocks');
    expect(blocks.status === 'success' && blocks.result.counts['reorgs']).to.equal(1);
    await indexAll();

    expect(await pgCampaigns()).to.deep.equal([kept!, replacement!].map((id) => id.toLowerCase()).sort());
    const { rows: overrides } = await h.apiPg.query('SELECT * FROM campaign_overrides');
    expect(overrides).to.deep.equal([]);
    // The event log announces it (#32): the orphaned campaigns' and the override's events are named
    // by one `retracted` event and flagged; the replacement is a new campaign.created after it.
    const { rows: events } = await h.apiPg.query<{
      id: string;
      type: string;
      campaign_db_id: string | null;
      retracted: boolean;
      payload: { ids?: string[] };
    }>('SELECT id::text, type, campaign_db_id, retracted, payload FROM events ORDER BY id');
    const orphanedEvents = events.filter(
      (e) =>
        orphaned.some((id) => campaignDbId(31337, id) === e.campaign_db_id) ||
        (e.type === 'campaign.changed' && e.campaign_db_id === campaignDbId(31337, kept!)),
    );
    expect(orphanedEvents.map((e) => e.type).sort()).to.deep.equal([
      'campaign.changed',
      'campaign.created',
      'campaign.created',
    ]);
    expect(orphanedEvents.every((e) => e.retracted)).to.equal(true);
    const retracted = events.filter((e) => e.type === 'retracted');
    expect(retracted).to.have.length(1);
    expect(retracted[0]!.payload.ids).to.deep.equal(orphanedEvents.map((e) => e.id));
    const replaced = events.find((e) => e.campaign_db_id === campaignDbId(31337, replacement!))!;
    expect(replaced).to.include({ type: 'campaign.created', retracted: false });
    expect(BigInt(replaced.id) > BigInt(retracted[0]!.id)).to.equal(true);
    expect(await esIds('campaigns')).to.deep.equal([kept!, replacement!].map((id) => campaignDbId(31337, id)).sort());
    const served = (await h.request().get('/v4/campaigns').query({ items: 100 })).body as {
      campaignId: string;
      type: string;
      hasOverrides: boolean;
      opportunityId: string;
    }[];
    expect(served.find((c) => c.campaignId === kept!.toLowerCase())).to.include({ type: 'ERC20', hasOverrides: false });
    // Opportunities: exactly those of the surviving campaigns (the orphaned pool opportunity is gone).
    expect(await esIds('opportunities')).to.deep.equal([...new Set(served.map((c) => c.opportunityId))].sort());

    // Stored headers are the node's chain again, hash for hash.
    const { rows: tip } = await h.apiPg.query<{ number: string; hash: string }>(
      'SELECT number, hash FROM blocks WHERE chain_id = 31337 ORDER BY number DESC LIMIT 3',
    );
    for (const row of tip) {
      const block = await jsonRpc<{ hash: string }>(rpcUrl, 'eth_getBlockByNumber', [
        `0x${Number(row.number).toString(16)}`,
        false,
      ]);
      expect(row.hash).to.equal(block.hash);
    }
  });

  it('refuses a campaigns batch read from blocks that are no longer the stored ones', async function () {
    const fork = await snapshot({ rpcUrl });
    const now = await getLatestTimestamp({ rpcUrl });
    const orphaned = await create(campaign(now + 13 * DAY));
    expect((await h.runJob('blocks')).status).to.equal('success'); // headers stored, campaigns not yet indexed
    await revert({ rpcUrl, id: fork });
    const [replacement] = await create(campaign(now + 17 * DAY, 1)); // same height, another block
    const refused = await h.runJob('campaigns');
    expect(refused.status === 'success' && refused.result.counts['campaigns']).to.equal(0);
    expect(refused.status === 'success' && refused.result.counts['reorgRetries']).to.equal(1);
    expect(await pgCampaigns()).not.to.include(replacement!.toLowerCase());
    await indexAll();
    expect(await pgCampaigns()).to.include(replacement!.toLowerCase());
    expect(await pgCampaigns()).not.to.include(orphaned[0]!.toLowerCase());
  });

  it('handles a new branch shorter than the stored chain', async function () {
    const fork = await snapshot({ rpcUrl });
    const now = await getLatestTimestamp({ rpcUrl });
    const orphaned = await create(campaign(now + 11 * DAY));
    await mine({ rpcUrl, blocks: 4 });
    await indexAll();
    expect(await pgCampaigns()).to.include(orphaned[0]!.toLowerCase());

    await revert({ rpcUrl, id: fork });
    await mine({ rpcUrl, blocks: 1 });
    await indexAll();
    expect(await pgCampaigns()).not.to.include(orphaned[0]!.toLowerCase());
    const head = Number(await jsonRpc<string>(rpcUrl, 'eth_blockNumber'));
    const { rows } = await h.apiPg.query<{ n: string }>(
      `SELECT block_number AS n FROM cursors WHERE job = 'blocks' AND chain_id = 31337`,
    );
    expect(Number(rows[0]!.n)).to.equal(head);
    expect(await esIds('campaigns')).not.to.include(campaignDbId(31337, orphaned[0]!));
  });

  it('rolls back reward-token whitelist changes of orphaned blocks (GET /v4/tokens/reward follows the new branch, #33)', async function () {
    const { devnet, stack } = h.chains[0]!;
    const token = stack.tokens.rewards[2]!.address;
    const setMinimum = async (amount: bigint) => {
      const { walletClient, publicClient } = createDevnetClients({ rpcUrl, chainId: devnet.chainId });
      await publicClient.waitForTransactionReceipt({
        hash: await walletClient.writeContract({
          address: stack.distributionCreator,
          abi: distributionCreatorAbi,
          functionName: 'setRewardTokenMinAmounts',
          args: [[token], [amount]],
        }),
      });
    };
    const served = async () =>
      (
        (await h.request().get('/v4/tokens/reward/31337').expect(200)).body as {
          address: string;
          minimumAmountPerHour: string;
        }[]
      ).find((t) => t.address === token.toLowerCase())?.minimumAmountPerHour;
    await indexAll();
    const before = await served();
    expect(before).to.equal(stack.tokens.rewards[2]!.minAmountPerHour.toString());
    const fork = await snapshot({ rpcUrl });
    await setMinimum(0n);
    await indexAll();
    expect(await served()).to.equal(undefined);
    await revert({ rpcUrl, id: fork });
    await mine({ rpcUrl, blocks: 3 }); // a longer branch without the change
    await indexAll();
    expect(await served()).to.equal(before);
  });
});
