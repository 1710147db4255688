import { expect } from 'chai';
import { parseEventLogs, type Hex } from 'viem';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { distributionCreatorAbi } from '../../../contracts/artifacts/index.js';
import { createDevnetClients } from '../../../contracts/clients.js';
import { signSession } from '../../../api/identity/jwt.js';
import { campaignDbId } from '../../../domain/ids.js';
import { createHarness, type Harness } from '../../helpers/harness.js';

const EXPLORER = 'https://explorer.devnet.invalid/';
const GHOST_TX = `0x${'ab'.repeat(32)}`;
const GHOST_ID = `0x${'cd'.repeat(32)}`;

/**
 * GET /v4/transactions/find-creation-hash, /campaigns and /campaign-ids (#46, the hosted shapes) against
 * a real devnet: two transactions of DistributionCreator.createCampaigns (two campaigns, then one made
 * private), indexed by the blocks and campaigns jobs; every answer checked against the transaction
 * receipts read from the node.
 */
describe('GET /v4/transactions/*: the creation transaction of a campaign and the campaigns of a transaction', function () {
  let h: Harness;
  let pair: { txHash: Hex; blockNumber: bigint };
  let single: { txHash: Hex; blockNumber: bigint };
  let hidden: { campaignId: Hex; creator: string };
  const get = (path: string, query: Record<string, unknown>, headers: Record<string, string> = {}) =>
    h.request().get(path).query(query).set(headers);
  const as = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: h.config.jwtSecret, address, tier: 0 }).token}`,
  });
  /** The NewCampaign events of a transaction, read from its receipt on the node (the independent truth). */
  async function createdBy(txHash: Hex) {
    const { devnet } = h.chains[0]!;
    const { publicClient } = createDevnetClients({ rpcUrl: devnet.rpcUrl, chainId: devnet.chainId });
    const receipt = await publicClient.getTransactionReceipt({ hash: txHash });
    return {
      receipt,
      campaigns: parseEventLogs({ abi: distributionCreatorAbi, eventName: 'NewCampaign', logs: receipt.logs }).map(
        (e) => e.args.campaign,
      ),
    };
  }

  before(async function () {
    h = await createHarness({
      chainIds: [31337],
      chainOverrides: { explorers: [{ type: 'ETHERSCAN', url: EXPLORER }] },
    });
    const { devnet, stack } = h.chains[0]!;
    const now = await getLatestTimestamp({ rpcUrl: devnet.rpcUrl });
    const campaign = (i: number) => ({
      rewardToken: stack.tokens.rewards[0]!.address,
      amount: 10n ** 18n * BigInt(10 + i),
      campaignType: 1,
      startTimestamp: now - 3600 + i,
      duration: 7 * 86_400,
      campaignData: encodeErc20CampaignData({ targetToken: stack.tokens.targets[i % 2]!.address }),
    });
    const target = { rpcUrl: devnet.rpcUrl, chainId: devnet.chainId, stack };
    pair = await createCampaigns({ ...target, campaigns: [campaign(0), campaign(1)] });
    const third = await createCampaigns({ ...target, campaigns: [campaign(2)] });
    single = third;
    hidden = { campaignId: third.campaigns[0]!.campaignId, creator: third.campaigns[0]!.creator.toLowerCase() };
    for (const job of ['blocks', 'campaigns']) expect((await h.runJob(job)).status, job).to.equal('success');
    await h
      .request()
      .patch(`/v4/campaigns/${campaignDbId(devnet.chainId, hidden.campaignId)}/privacy`)
      .set(as(hidden.creator))
      .send({ isPrivate: true, recipientsCanView: false })
      .expect(200);
  });

  after(async () => h?.close());

  it('find-creation-hash: the transaction and block that created each campaign, with its explorer page', async function () {
    const { campaigns, receipt } = await createdBy(pair.txHash);
    expect(campaigns).to.have.length(2);
    for (const c of campaigns) {
      const res = await get('/v4/transactions/find-creation-hash', { chainId: 31337, campaignId: c.campaignId }).expect(
        200,
      );
      expect(res.body).to.deep.equal({
        hash: receipt.transactionHash,
        blockNumber: Number(receipt.blockNumber),
        explorerUrl: `https://explorer.devnet.invalid/tx/${receipt.transactionHash}`,
      });
    }
    // Upper-case input is the same campaign.
    const upper = await get('/v4/transactions/find-creation-hash/', {
      chainId: 31337,
      campaignId: `0x${campaigns[0]!.campaignId.slice(2).toUpperCase()}`,
    }).expect(200);
    expect(upper.body.hash).to.equal(receipt.transactionHash);
  });

  it('campaigns and campaign-ids: the campaigns a transaction created, in event order, as they stand now', async function () {
    const { campaigns } = await createdBy(pair.txHash);
    const res = await get('/v4/transactions/campaigns', { chainId: 31337, hash: pair.txHash }).expect(200);
    expect(res.body.campaignIds).to.deep.equal(campaigns.map((c) => c.campaignId.toLowerCase()));
    expect(res.body.configs).to.deep.equal([]);
    expect(res.body.extendedCampaigns).to.have.length(2);
    campaigns.forEach((c, i) => {
      expect(res.body.extendedCampaigns[i]).to.deep.include({
        campaignId: c.campaignId.toLowerCase(),
        amount: c.amount.toString(),
        rewardToken: c.rewardToken.toLowerCase(),
        startTimestamp: c.startTimestamp,
        endTimestamp: c.startTimestamp + c.duration,
        chainId: 31337,
        computeChainId: 31337,
        campaignType: 'ERC20',
        campaignSubType: 0,
        creator: c.creator.toLowerCase(),
        index: i,
        id: campaignDbId(31337, c.campaignId),
      });
      expect(res.body.extendedCampaigns[i].campaignParameters).to.be.an('object');
    });
    const ids = await get('/v4/transactions/campaign-ids', { chainId: 31337, hash: pair.txHash }).expect(200);
    expect(ids.body).to.deep.equal(res.body.campaignIds);
    // Each id served leads back to the same transaction.
    for (const id of ids.body as string[])
      expect(
        (await get('/v4/transactions/find-creation-hash', { chainId: 31337, campaignId: id }).expect(200)).body.hash,
      ).to.equal(pair.txHash);
  });

  it('configs: the stored configurations attached to the campaigns of the transaction, each once', async function () {
    const { campaigns } = await createdBy(pair.txHash);
    const config = { distributionMethodParameters: { distributionMethod: 'TX_LOOKUP', note: 'transactions test' } };
    const stored = (await h.request().post('/v4/config/store').send(config).expect(200)).body.hash as string;
    const creator = as(campaigns[0]!.creator.toLowerCase());
    // Attached by the campaigns' creator to both campaigns of the transaction: listed once.
    for (const c of campaigns) {
      const res = await h
        .request()
        .get(`/v4/config/hash/${stored}`)
        .query({ campaignId: c.campaignId, distributionChainId: 31337 })
        .set(creator)
        .expect(200);
      expect(res.headers['x-config-association']).to.match(/^attached/);
    }
    const res = await get('/v4/transactions/campaigns', { chainId: 31337, hash: pair.txHash }).expect(200);
    expect(res.body.configs).to.deep.equal([(await h.request().get(`/v4/config/hash/${stored}`).expect(200)).body]);
    // Another transaction's campaigns do not carry it.
    const other = await get('/v4/transactions/campaigns', { chainId: 31337, hash: single.txHash }, as(hidden.creator));
    expect(other.body.configs).to.deep.equal([]);
  });

  it('a transaction that created nothing we indexed, and a campaign we do not know: empty answers, never 404', async function () {
    expect(
      (await get('/v4/transactions/campaigns', { chainId: 31337, hash: GHOST_TX }).expect(200)).body,
    ).to.deep.equal({ campaignIds: [], configs: [], extendedCampaigns: [] });
    expect(
      (await get('/v4/transactions/campaign-ids', { chainId: 31337, hash: GHOST_TX }).expect(200)).body,
    ).to.deep.equal([]);
    expect(
      (await get('/v4/transactions/find-creation-hash', { chainId: 31337, campaignId: GHOST_ID }).expect(200)).body,
    ).to.deep.equal({ hash: null, blockNumber: null, explorerUrl: null });
  });

  it('a private campaign: absent for a stranger exactly as one that does not exist, served to its creator', async function () {
    const stranger = as(`0x${'77'.repeat(20)}`);
    for (const headers of [{}, stranger]) {
      const byId = await get(
        '/v4/transactions/find-creation-hash',
        { chainId: 31337, campaignId: hidden.campaignId },
        headers,
      );
      const ghost = await get('/v4/transactions/find-creation-hash', { chainId: 31337, campaignId: GHOST_ID }, headers);
      expect([byId.status, byId.body]).to.deep.equal([ghost.status, ghost.body]);
      const byTx = await get('/v4/transactions/campaigns', { chainId: 31337, hash: single.txHash }, headers);
      expect([byTx.status, byTx.body]).to.deep.equal([200, { campaignIds: [], configs: [], extendedCampaigns: [] }]);
      expect(byTx.text).to.not.include(hidden.campaignId.slice(2).toLowerCase());
      const ids = await get('/v4/transactions/campaign-ids', { chainId: 31337, hash: single.txHash }, headers);
      expect(ids.body).to.deep.equal([]);
    }
    const mine = as(hidden.creator);
    const own = await get(
      '/v4/transactions/find-creation-hash',
      { chainId: 31337, campaignId: hidden.campaignId },
      mine,
    );
    expect(own.body).to.include({ hash: single.txHash, blockNumber: Number(single.blockNumber) });
    const ownTx = await get('/v4/transactions/campaigns', { chainId: 31337, hash: single.txHash }, mine).expect(200);
    expect(ownTx.body.campaignIds).to.deep.equal([hidden.campaignId.toLowerCase()]);
    expect(ownTx.headers['cache-control'], 'an answer that depends on the caller is private').to.match(/private/);
  });

  it('refuses bad input with a 400 naming the field', async function () {
    const cases: [string, Record<string, unknown>, string][] = [
      ['/v4/transactions/find-creation-hash', { chainId: 31337 }, 'campaignId'],
      ['/v4/transactions/find-creation-hash', { chainId: 31337, campaignId: '0x12' }, 'campaignId'],
      ['/v4/transactions/find-creation-hash', { chainId: 4242, campaignId: GHOST_ID }, 'chainId'],
      ['/v4/transactions/campaigns', { chainId: 31337, hash: 'nope' }, 'hash'],
      ['/v4/transactions/campaigns', { hash: GHOST_TX }, 'chainId'],
      ['/v4/transactions/campaigns', { chainId: 4242, hash: GHOST_TX }, 'chainId'],
      ['/v4/transactions/campaign-ids', { chainId: 'x', hash: GHOST_TX }, 'chainId'],
    ];
    for (const [path, query, field] of cases) {
      const res = await get(path, query).expect(400);
      expect(res.headers['content-type']).to.match(/application\/problem\+json/);
      expect(JSON.stringify(res.body), `${path} ${JSON.stringify(query)}`).to.include(field);
    }
  });
});
