import { expect } from 'chai';
import { createCampaigns, encodeErc20CampaignData, getLatestTimestamp } from '../../../contracts/actions.js';
import { campaignDbId, tokenDbId } from '../../../domain/ids.js';
import { indexNames } from '../../../internal/es.js';
import { enqueueOutbox } from '../../../domain/tables/outbox.js';
import { INLINE_PUBLISH_BATCHES, outboxMark, publishOutboxNow } from '../../../domain/projection/publishNow.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { login } from './authFlow.js';

const BO = { authorization: TEST_BACK_OFFICE_TOKEN };
const DAY = 86_400;

type Doc = Record<string, unknown> & {
  rewardToken?: Record<string, unknown>;
  creator?: { creatorId: string | null; tags: string[] };
  tokens?: Record<string, unknown>[];
};

/**
 * Reference data an operator curates (#46): tokens, chains and creators written through the back office, kept by the
 * jobs that write the same rows, republished into the search documents before the answer, and audit-logged.
 */
describe('back-office curation of reference data: tokens, chains, creators, counts and the audit log', function () {
  let h: Harness;
  let usdc: { id: string; address: string };
  let target: { id: string; address: string };
  let tlp: string;
  let usdcCampaign: string;
  let opportunity: string;
  let creatorAddress: string;

  /** The document as Elasticsearch holds it now (no refresh asked: the write's publish made it searchable). */
  const doc = async (family: 'campaigns' | 'opportunities', id: string): Promise<Doc> =>
    (await h.deps.es.get({ index: indexNames(h.config.esIndexPrefix, family).read, id }))._source as Doc;
  const audit = async (entity: string, entityId: string) =>
    (
      await h.deps.pg.query(
        'SELECT actor, action, before, after FROM back_office_audit WHERE entity = $1 AND entity_id = $2 ORDER BY id',
        [entity, entityId],
      )
    ).rows;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    const { devnet, stack } = h.chains[0]!;
    const rpcUrl = devnet.rpcUrl;
    const now = await getLatestTimestamp({ rpcUrl });
    const rewards = stack.tokens.rewards;
    const targetToken = stack.tokens.targets[0]!;
    const created = await createCampaigns({
      rpcUrl,
      chainId: devnet.chainId,
      stack,
      campaigns: [
        {
          campaignType: 1,
          duration: 7 * DAY,
          rewardToken: rewards[1]!.address,
          amount: 1000n * 10n ** BigInt(rewards[1]!.decimals),
          startTimestamp: now + DAY,
          campaignData: encodeErc20CampaignData({ targetToken: targetToken.address }),
        },
      ],
    });
    usdcCampaign = campaignDbId(31337, created.campaignIds[0]!);
    creatorAddress = created.campaigns[0]!.creator.toLowerCase();
    usdc = { id: tokenDbId(31337, rewards[1]!.address), address: rewards[1]!.address.toLowerCase() };
    target = { id: tokenDbId(31337, targetToken.address), address: targetToken.address.toLowerCase() };
    tlp = stack.tokens.targets[1]!.address.toLowerCase();
    for (const job of ['blocks', 'campaigns', 'tokens', 'publish'])
      expect((await h.runJob(job)).status, job).to.equal('success');
    await h.refresh();
    opportunity = (
      await h.deps.pg.query<{ opportunity_id: string }>('SELECT opportunity_id FROM campaigns_current WHERE id = $1', [
        usdcCampaign,
      ])
    ).rows[0]!.opportunity_id;
  });
  after(async () => h?.close());

  describe('tokens', function () {
    it('PATCH curates a token: served, in the campaign and opportunity documents at once, kept by the tokens job', async function () {
      // The chain config gives USDCx displaySymbol USDC and verified (test/helpers/testConfig.ts).
      expect((await doc('campaigns', usdcCampaign)).rewardToken).to.include({ displaySymbol: 'USDC', verified: true });
      const res = await h
        .request()
        .patch(`/v4/tokens/${usdc.id}`)
        .set({ ...BO, 'x-audit-actor': 'ops@example.org' })
        .send({
          displaySymbol: 'USDC.e',
          icon: 'https://icons.example.org/usdc.svg',
          verified: false,
          name: 'Curated Coin',
        })
        .expect(200);
      expect(res.body).to.include({
        id: usdc.id,
        symbol: 'USDCx',
        displaySymbol: 'USDC.e',
        icon: 'https://icons.example.org/usdc.svg',
        verified: false,
        name: 'Curated Coin',
      });
      expect((await doc('campaigns', usdcCampaign)).rewardToken).to.include({
        displaySymbol: 'USDC.e',
        icon: 'https://icons.example.org/usdc.svg',
        verified: false,
      });
      await h
        .request()
        .patch(`/v4/tokens/${target.id}`)
        .set(BO)
        .send({ icon: 'https://icons.example.org/sttst.svg' })
        .expect(200);
      const tokens = (await doc('opportunities', opportunity)).tokens ?? [];
      expect(tokens.find((t) => t['address'] === target.address)).to.include({
        icon: 'https://icons.example.org/sttst.svg',
      });

      // The tokens job re-reads name/symbol from chain and applies the config's flags: the curated fields stay.
      expect((await h.runJob('tokens')).status).to.equal('success');
      expect((await h.runJob('publish')).status).to.equal('success');
      const served = (await h.request().get(`/v4/tokens/${usdc.id}`).expect(200)).body;
      expect(served).to.include({ displaySymbol: 'USDC.e', verified: false, name: 'Curated Coin', symbol: 'USDCx' });
      expect((await doc('campaigns', usdcCampaign)).rewardToken).to.include({
        displaySymbol: 'USDC.e',
        verified: false,
      });

      const rows = await audit('token', usdc.id);
      expect(rows).to.have.length(1);
      expect(rows[0].actor).to.equal('back-office:ops@example.org');
      expect(rows[0].action).to.equal('update');
      expect(rows[0].before).to.include({ display_symbol: 'USDC', verified: true, name: 'USD Coin (test)' });
      expect(rows[0].after).to.include({ display_symbol: 'USDC.e', verified: false, name: 'Curated Coin' });
      expect(rows[0].after.curated_fields).to.deep.equal(['display_symbol', 'icon', 'name', 'verified']);
    });

    it('POST adds a token (metadata from chain unless given), kept by the tokens job; 409 for a stored one', async function () {
      const res = await h
        .request()
        .post('/v4/tokens')
        .set(BO)
        .send({
          chainId: 31337,
          address: tlp,
          icon: 'https://icons.example.org/tlp.svg',
          verified: true,
          displaySymbol: 'LP',
          symbol: 'TLPc',
        })
        .expect(201);
      // Decimals and name read from chain (the contract's symbol is TLP), the symbol as given.
      expect(res.body).to.include({
        id: tokenDbId(31337, tlp),
        symbol: 'TLPc',
        decimals: 18,
        name: 'Test LP Token',
        displaySymbol: 'LP',
        verified: true,
      });
      const given = `0x${'5e'.repeat(20)}`;
      await h
        .request()
        .post('/v4/tokens/')
        .set(BO)
        .send({ chainId: 31337, address: given, icon: '', verified: false, symbol: 'OFF', decimals: 8 })
        .expect(201);
      // A token the chain already has (USDCx): 409.
      const taken = await h
        .request()
        .post('/v4/tokens')
        .set(BO)
        .send({ chainId: 31337, address: usdc.address, icon: '', verified: true, symbol: 'X', decimals: 6 })
        .expect(409);
      expect(taken.body.status).to.equal(409);
      expect((await h.runJob('tokens')).status).to.equal('success');
      const { rows } = await h.deps.pg.query(
        'SELECT address, symbol, display_symbol, verified, curated_fields FROM tokens WHERE address = ANY($1) ORDER BY address',
        [[tlp, given]],
      );
      // The job re-read TLP's metadata from chain (symbol TLP): the fields given stay.
      expect(rows.find((r) => r.address === tlp)).to.deep.include({
        symbol: 'TLPc',
        display_symbol: 'LP',
        verified: true,
        curated_fields: ['display_symbol', 'icon', 'symbol', 'verified'],
      });
      expect(rows.find((r) => r.address === given)).to.deep.include({ symbol: 'OFF', verified: false });
      expect((await audit('token', tokenDbId(31337, tlp)))[0]).to.include({ action: 'create', before: null });
    });

    it('refuses bad input with the field named, unknown tokens with 404, and writes nothing then', async function () {
      const cases: [string, object, string][] = [
        [`/v4/tokens/${usdc.id}`, { type: 'COIN' }, 'type'],
        [`/v4/tokens/${usdc.id}`, { verified: 'yes' }, 'verified'],
        [`/v4/tokens/${usdc.id}`, { price: 1 }, 'price'],
        [`/v4/tokens/${usdc.id}`, { underlyingTokenId: '123' }, 'underlyingTokenId'],
      ];
      for (const [path, body, field] of cases) {
        const res = await h.request().patch(path).set(BO).send(body).expect(400);
        expect(
          res.body.errors.map((e: { field: string }) => e.field),
          JSON.stringify(body),
        ).to.include(field);
      }
      await h.request().patch(`/v4/tokens/${usdc.id}`).set(BO).send({}).expect(400);
      const noCode = await h
        .request()
        .post('/v4/tokens')
        .set(BO)
        .send({ chainId: 31337, address: `0x${'e7'.repeat(20)}`, icon: '', verified: false })
        .expect(400);
      expect(noCode.body.errors[0].field).to.equal('symbol');
      const noAddress = await h
        .request()
        .post('/v4/tokens')
        .set(BO)
        .send({ chainId: 31337, icon: '', verified: true })
        .expect(400);
      expect(noAddress.body.errors.map((e: { field: string }) => e.field)).to.include('address');
      await h.request().patch('/v4/tokens/123').set(BO).send({ verified: true }).expect(404);
      expect(await audit('token', '123')).to.deep.equal([]);
      expect(await audit('token', usdc.id)).to.have.length(1);
    });

    it('counts tokens with the list filters', async function () {
      const all = (await h.request().get('/v4/tokens').query({ chainId: 31337, items: 100 }).expect(200)).body.length;
      const count = (await h.request().get('/v4/tokens/count').query({ chainId: 31337 }).expect(200)).body;
      expect(count).to.equal(all).and.to.be.greaterThan(3);
      expect(
        (await h.request().get('/v4/tokens/count/').query({ chainId: 31337, verified: true }).expect(200)).body,
      ).to.equal(
        (await h.request().get('/v4/tokens').query({ chainId: 31337, verified: true, items: 100 }).expect(200)).body
          .length,
      );
      expect(
        (await h.request().get('/v4/tokens/count').query({ chainId: 'x' }).expect(400)).body.errors[0].field,
      ).to.equal('chainId');
    });
  });

  describe('chains', function () {
    it('PATCH curates name, icon and explorers: served, in the documents, kept by every job writing chains', async function () {
      const explorers = [{ type: 'BLOCKSCOUT', url: 'https://explorer.example.org' }];
      const res = await h
        .request()
        .patch('/v4/chains/31337')
        .set(BO)
        .send({ name: 'Curated Devnet', icon: 'https://icons.example.org/devnet.svg', explorers })
        .expect(200);
      expect(res.body).to.include({ id: 31337, name: 'Curated Devnet', icon: 'https://icons.example.org/devnet.svg' });
      expect(res.body.explorers).to.deep.equal([{ ...explorers[0], chainId: 31337 }]);
      expect((await doc('opportunities', opportunity))['chainName']).to.equal('Curated Devnet');
      // Every indexing job (blocks here) writes the configured chains: the curated fields stay.
      expect((await h.runJob('blocks')).status).to.equal('success');
      const chains = (await h.request().get('/v4/chains').query({ test: true }).expect(200)).body;
      expect(chains.find((c: { id: number }) => c.id === 31337)).to.include({ name: 'Curated Devnet' });
      const { rows } = await h.deps.pg.query('SELECT name, icon, explorers FROM chains WHERE id = 31337');
      expect(rows[0]).to.deep.equal({
        name: 'Curated Devnet',
        icon: 'https://icons.example.org/devnet.svg',
        explorers,
      });
      const audited = await audit('chain', '31337');
      expect(audited).to.have.length(1);
      expect(audited[0].before.name).to.not.equal('Curated Devnet');
      expect(audited[0].after).to.include({ name: 'Curated Devnet' });
    });

    it('refuses computed fields and bad explorers by name, unknown chains with 404; counts chains', async function () {
      const computed = await h.request().patch('/v4/chains/31337').set(BO).send({ liveCampaigns: 3 }).expect(400);
      expect(computed.body.errors[0].field).to.equal('liveCampaigns');
      const bad = await h
        .request()
        .patch('/v4/chains/31337')
        .set(BO)
        .send({ explorers: [{ type: 'OTHER', url: 'https://x.example.org' }] })
        .expect(400);
      expect(bad.body.errors[0].field).to.match(/^explorers\.0/);
      await h.request().patch('/v4/chains/999999').set(BO).send({ name: 'x' }).expect(404);
      expect(await audit('chain', '999999')).to.deep.equal([]);
      const listed = (await h.request().get('/v4/chains').query({ test: true }).expect(200)).body.length;
      expect((await h.request().get('/v4/chains/count').query({ test: true }).expect(200)).body).to.equal(listed);
      expect((await h.request().get('/v4/chains/count').query({ name: 'no such chain' }).expect(200)).body).to.equal(0);
    });
  });

  describe('creators', function () {
    it('POST, PATCH and DELETE a creator: its campaigns and opportunities carry it at once; audit rows', async function () {
      const created = await h
        .request()
        .post('/v4/creators')
        .set(BO)
        .send({ id: 'acme', name: 'Acme', addresses: [creatorAddress], tags: ['dex'] })
        .expect(201);
      expect(created.body).to.deep.equal({
        id: 'acme',
        name: 'Acme',
        icon: null,
        rebateFee: 0,
        addresses: [creatorAddress],
        tags: ['dex'],
      });
      expect((await doc('campaigns', usdcCampaign)).creator).to.deep.include({ creatorId: 'acme', tags: ['dex'] });
      expect((await doc('opportunities', opportunity))['creatorSlugs']).to.deep.equal(['acme']);
      await h
        .request()
        .patch('/v4/creators/acme')
        .set(BO)
        .send({ name: 'Acme Labs', tags: ['dex', 'blue-chip'] })
        .expect(200);
      expect((await doc('campaigns', usdcCampaign)).creator).to.deep.include({ tags: ['dex', 'blue-chip'] });
      expect((await h.request().get('/v4/creators/acme').expect(200)).body).to.include({ name: 'Acme Labs' });
      const gone = await h.request().delete('/v4/creators/acme').set(BO).expect(200);
      expect(gone.body).to.include({ id: 'acme', name: 'Acme Labs' });
      expect((await doc('campaigns', usdcCampaign)).creator).to.deep.include({ creatorId: null });
      expect((await doc('opportunities', opportunity))['creatorSlugs']).to.deep.equal([]);
      // The campaign stays, under its creator address.
      expect((await h.request().get(`/v4/creators/${creatorAddress}`).expect(200)).body.id).to.equal(creatorAddress);
      const rows = await audit('creator', 'acme');
      expect(rows.map((r) => r.action)).to.deep.equal(['create', 'update', 'delete']);
      expect(rows[1].before).to.include({ name: 'Acme' });
      expect(rows[1].after).to.include({ name: 'Acme Labs' });
      expect(rows[2].after).to.equal(null);
    });

    it('refuses a taken id or address (409), a creator with credits (409), bad input by name', async function () {
      const other = `0x${'c1'.repeat(20)}`;
      await h
        .request()
        .post('/v4/creators')
        .set(BO)
        .send({ id: 'one', name: 'One', addresses: [other] })
        .expect(201);
      await h
        .request()
        .post('/v4/creators')
        .set(BO)
        .send({ id: 'one', name: 'Again', addresses: [`0x${'c2'.repeat(20)}`] })
        .expect(409);
      const claimed = await h
        .request()
        .post('/v4/creators')
        .set(BO)
        .send({ id: 'two', name: 'Two', addresses: [other.toUpperCase().replace('0X', '0x')] })
        .expect(409);
      expect(claimed.body.errors[0].field).to.equal('addresses');
      await h.deps.pg.query("INSERT INTO credit_accounts (creator_id) VALUES ('one')");
      await h.request().delete('/v4/creators/one').set(BO).expect(409);
      expect((await h.request().get('/v4/creators/one').expect(200)).body.id).to.equal('one');
      const bad: [object, string][] = [
        [{ id: 'Not A Slug', name: 'x', addresses: [other] }, 'id'],
        [{ id: 'three', name: 'x', addresses: ['0x12'] }, 'addresses.0'],
        [{ id: 'three', name: 'x', addresses: [other], rebateFee: 101 }, 'rebateFee'],
        [{ id: 'three', addresses: [other] }, 'name'],
      ];
      for (const [body, field] of bad) {
        const res = await h.request().post('/v4/creators').set(BO).send(body).expect(400);
        expect(
          res.body.errors.map((e: { field: string }) => e.field),
          JSON.stringify(body),
        ).to.include(field);
      }
      await h.request().patch('/v4/creators/nobody').set(BO).send({ name: 'x' }).expect(404);
      await h.request().delete('/v4/creators/nobody').set(BO).expect(404);
      expect((await audit('creator', 'one')).map((r) => r.action)).to.deep.equal(['create']);
    });
  });

  describe('counts of the static families', function () {
    it('counts protocols and templates as their lists', async function () {
      const templates = (await h.request().get('/v4/templates').query({ items: 100 }).expect(200)).body.length;
      expect((await h.request().get('/v4/templates/count').expect(200)).body)
        .to.equal(templates)
        .and.to.be.greaterThan(0);
      const protocols = (await h.request().get('/v4/protocols').query({ items: 100, test: true }).expect(200)).body
        .length;
      expect((await h.request().get('/v4/protocols/count').query({ test: true }).expect(200)).body).to.equal(protocols);
      await h
        .request()
        .get('/v4/templates/count')
        .query({ action: ['NOPE'] })
        .expect(400);
    });
  });

  describe('protocols', function () {
    it('PATCH corrects a registered protocol: served, in its opportunities’ documents at once and after a publish', async function () {
      // A Uniswap V3 (CLAMM) opportunity with one live campaign, written as the indexer writes them.
      const now = Math.floor(Date.now() / 1000);
      const pool = `0x${'77'.repeat(20)}`;
      await h.deps.pg.query(
        "INSERT INTO opportunities (id, chain_id, type, identifier, action) VALUES ('77001', 31337, 'CLAMM', $1, 'POOL')",
        [pool],
      );
      await h.deps.pg.query(
        `INSERT INTO campaigns (id, distribution_chain_id, compute_chain_id, campaign_id, creator, reward_token, amount, campaign_type,
           start_timestamp, end_timestamp, campaign_data, block_number, block_hash, tx_hash, log_index, created_at, main_parameter,
           opportunity_id, params)
         VALUES ('77002', 31337, 31337, $1, $2, $3, '1000000', 2, $4, $5, $6, 1, $1, $1, 0, now(), $7, '77001', '{}')`,
        [
          `0x${'78'.repeat(32)}`,
          `0x${'79'.repeat(20)}`,
          usdc.address,
          now - 3600,
          now + 7 * DAY,
          encodeErc20CampaignData({ targetToken: pool as `0x${string}` }),
          pool,
        ],
      );
      await h.deps.pg.query("INSERT INTO search_outbox (entity, entity_id) VALUES ('campaign', '77002')");
      expect((await h.runJob('publish')).status).to.equal('success');
      expect((await doc('opportunities', '77001'))['protocol']).to.include({ id: 'uniswap-v3', name: 'Uniswap V3' });

      const res = await h
        .request()
        .patch('/v4/protocols/uniswap-v3')
        .set(BO)
        .send({ name: 'Uniswap', url: 'https://app.uniswap.org', tags: ['dex', 'amm'] })
        .expect(200);
      expect(res.body).to.deep.include({
        id: 'uniswap-v3',
        name: 'Uniswap',
        url: 'https://app.uniswap.org',
        tags: ['dex', 'amm'],
      });
      expect(res.body.numberOfLiveCampaigns).to.equal(1);
      expect((await doc('opportunities', '77001'))['protocol']).to.deep.include({
        name: 'Uniswap',
        tags: ['dex', 'amm'],
      });
      // Fields left out keep their value.
      await h
        .request()
        .patch('/v4/protocols/uniswap-v3/')
        .set(BO)
        .send({ icon: 'https://icons.example.org/uni.svg' })
        .expect(200);
      expect((await h.runJob('publish')).status).to.equal('success');
      expect((await doc('opportunities', '77001'))['protocol']).to.deep.include({
        name: 'Uniswap',
        icon: 'https://icons.example.org/uni.svg',
        url: 'https://app.uniswap.org',
      });
      const listed = (await h.request().get('/v4/protocols').query({ tags: 'amm', test: true }).expect(200)).body;
      expect(listed.map((p: { id: string; name: string }) => [p.id, p.name])).to.deep.equal([
        ['uniswap-v3', 'Uniswap'],
      ]);
      expect(
        (await h.request().get('/v4/protocols/count').query({ tags: 'amm', test: true }).expect(200)).body,
      ).to.equal(1);

      await h.request().patch('/v4/protocols/no-such-protocol').set(BO).send({ name: 'x' }).expect(404);
      const bad = await h.request().patch('/v4/protocols/uniswap-v3').set(BO).send({ url: 'ftp://x' }).expect(400);
      expect(bad.body.errors[0].field).to.equal('url');
      await h.request().patch('/v4/protocols/uniswap-v3').send({ name: 'x' }).expect(401);
      const rows = await audit('protocol', 'uniswap-v3');
      expect(rows.map((r) => r.action)).to.deep.equal(['update', 'update']);
      expect(rows[0].before).to.include({ name: 'Uniswap V3' });
      expect(rows[1].before).to.include({ name: 'Uniswap' });
      expect(rows[1].after).to.include({ icon: 'https://icons.example.org/uni.svg' });
    });
  });

  describe('the audit log', function () {
    it('GET /v4/audit: back office only, newest first, filtered, paged by keyset', async function () {
      await h.request().get('/v4/audit').expect(401);
      await h.request().get('/v4/audit').set({ authorization: 'wrong' }).expect(401);
      const { cookie } = await login(h, HARDHAT_TEST_KEYS[2]);
      await h.request().get('/v4/audit').set('Cookie', cookie).expect(403);
      await h.request().patch(`/v4/tokens/${usdc.id}`).set('Cookie', cookie).send({ verified: true }).expect(403);
      await h.request().post('/v4/creators').send({ id: 'x', name: 'x', addresses: [] }).expect(401);

      const all = (await h.request().get('/v4/audit').set(BO).query({ limit: 200 }).expect(200)).body;
      const ids = all.entries.map((e: { id: string }) => Number(e.id));
      expect(ids).to.deep.equal([...ids].sort((a, b) => b - a));
      expect(all.next).to.equal(null);
      expect(all.entries[0]).to.include({ entity: 'protocol', entityId: 'uniswap-v3', action: 'update' });
      const tokens = (await h.request().get('/v4/audit/').set(BO).query({ entity: 'token' }).expect(200)).body.entries;
      expect(tokens.every((e: { entity: string }) => e.entity === 'token')).to.equal(true);
      const one = (await h.request().get('/v4/audit').set(BO).query({ entity: 'token', entityId: usdc.id }).expect(200))
        .body;
      expect(one.entries).to.have.length(1);
      expect(one.entries[0].after).to.include({ display_symbol: 'USDC.e' });
      // Keyset pages of 2 walk every entry once, in order.
      const walked: number[] = [];
      let before: string | null | undefined;
      do {
        const page = (
          await h
            .request()
            .get('/v4/audit')
            .set(BO)
            .query({ limit: 2, ...(before ? { before } : {}) })
            .expect(200)
        ).body;
        walked.push(...page.entries.map((e: { id: string }) => Number(e.id)));
        before = page.next;
      } while (before);
      expect(walked).to.deep.equal(ids);
      expect(
        (await h.request().get('/v4/audit').set(BO).query({ before: 'x' }).expect(400)).body.errors[0].field,
      ).to.equal('before');
    });
  });

  it('publishes at most INLINE_PUBLISH_BATCHES outbox batches inside a request; the rest stays queued for the publish job', async function () {
    const mark = await outboxMark(h.deps.pg);
    // Six campaign entries (ids of no campaign: the projector deletes their documents) with batches of one entry.
    await enqueueOutbox(
      h.deps.pg,
      'campaign',
      Array.from({ length: INLINE_PUBLISH_BATCHES + 2 }, (_, i) => `9990000${i}`),
    );
    const config = { ...h.config, indexer: { ...h.config.indexer, publishBatch: 1 } };
    await publishOutboxNow({ config, pg: h.deps.pg, es: h.deps.es, logger: h.deps.logger }, mark);
    const left = await h.deps.pg.query('SELECT entity_id FROM search_outbox WHERE id > $1', [mark]);
    expect(left.rows).to.have.length(2);
    expect((await h.runJob('publish')).status).to.equal('success');
    expect((await h.deps.pg.query('SELECT 1 FROM search_outbox WHERE id > $1', [mark])).rows).to.have.length(0);
  });
});
