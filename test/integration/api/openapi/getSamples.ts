import { HARDHAT_TEST_KEYS } from '../../../../contracts/clients.js';
import { cookieOf, login } from '../authFlow.js';
import type { ReferenceDemo } from '../referenceDemo.js';
import type { TestOidcProvider } from '../../../helpers/oidcProvider.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../../helpers/testConfig.js';

/** One concrete request of a GET operation against the seeded demo. */
export type GetSample = { path: string; query?: Record<string, string | number>; headers?: Record<string, string> };

/**
 * A request for every documented GET operation (keyed by OpenAPI path) built from the reference
 * demo's data, so each response can be checked against its documented schema. A session, an API
 * key, a stored configuration and a campaign list are created first for the routes that need them.
 */
export async function getSamples(demo: ReferenceDemo, idp: TestOidcProvider): Promise<Record<string, GetSample>> {
  const { h } = demo;
  const one = async <T>(sql: string) => (await h.deps.pg.query(sql)).rows[0] as T;
  const campaign = await one<{
    id: string;
    campaign_id: string;
    tx_hash: string;
    opportunity_id: string;
    creator: string;
  }>(
    `SELECT c.id, c.campaign_id, c.tx_hash, c.opportunity_id, c.creator FROM campaigns_current c
       JOIN reward_breakdowns b ON b.campaign_id = c.campaign_id ORDER BY c.id LIMIT 1`,
  );
  const recipient = await one<{ recipient: string }>(
    `SELECT recipient FROM reward_breakdowns WHERE campaign_id = '${campaign.campaign_id}' ORDER BY amount DESC LIMIT 1`,
  );
  const token = await one<{ id: string; address: string }>(`SELECT id, address FROM tokens ORDER BY id LIMIT 1`);
  const rewardToken = await one<{ id: string; address: string; symbol: string }>(
    `SELECT id, address, symbol FROM tokens WHERE symbol = 'RWD' LIMIT 1`,
  );
  const root = await one<{ from: string; to: string }>(
    `SELECT min(timestamp)::text AS "from", max(timestamp)::text AS "to" FROM roots WHERE chain_id = 31337`,
  );
  const block = await one<{ number: string; timestamp: string }>(
    `SELECT number::text, timestamp::text FROM blocks WHERE chain_id = 31337 ORDER BY number DESC LIMIT 1`,
  );
  const session = await login(h, HARDHAT_TEST_KEYS[0]);
  const auth = { Cookie: session.cookie };
  const key = (
    await h.request().post('/v4/developer/keys/').set(auth).send({ description: 'openapi samples' }).expect(200)
  ).body as { id: string; rawKey: string };
  const config = (
    await h.request().post('/v4/config/store').send({ rewardToken: token.address, amount: '1000' }).expect(200)
  ).body as { hash: string };
  // The ratchet route answers only for ratchet campaigns: the sample campaign gets ratchet settings, attached by the back office.
  const ratchet = (
    await h
      .request()
      .post('/v4/config/store')
      .send({ distributionMethodParameters: { distributionMethod: 'SOFR_SPREAD_RATCHET', ratchet: { spread: 1 } } })
      .expect(200)
  ).body as { hash: string };
  await h.deps.pg.query(
    `INSERT INTO campaign_config_associations (config_hash, distribution_chain_id, campaign_id, grounds)
     SELECT $1, distribution_chain_id, lower(campaign_id), 'backOffice' FROM campaigns WHERE id = $2`,
    [ratchet.hash, campaign.id],
  );
  await h
    .request()
    .post('/v4/campaign-lists')
    .set(auth)
    .send({ name: 'samples', campaignIds: [campaign.id] })
    .expect(200);
  const chain = { chainId: 31337 };
  const blacklisted = `0x${'b1'.repeat(20)}`;
  await h
    .request()
    .post('/v4/blacklists')
    .set({ authorization: TEST_BACK_OFFICE_TOKEN })
    .send({ chainId: 31337, userAddress: blacklisted, reason: 'openapi sample' })
    .expect(200);
  const user = recipient.recipient;
  const pool =
    (
      await one<{ identifier: string } | undefined>(
        `SELECT identifier FROM opportunities WHERE chain_id = 31337 AND type = 'CLAMM' ORDER BY id LIMIT 1`,
      )
    )?.identifier ?? `0x${'c1'.repeat(20)}`;
  const backOffice = { authorization: TEST_BACK_OFFICE_TOKEN };
  // A program holding the sample campaign's opportunity (#46).
  await h
    .request()
    .post('/v4/programs')
    .set(backOffice)
    .send({ name: 'OpenAPI samples', slug: 'openapi-samples', opportunities: [campaign.opportunity_id] })
    .expect(201);
  // Fee revenue (#33): a month, chain and token one demo campaign was created in.
  const fee = await one<{ token: string; y: number; m: number }>(
    `SELECT reward_token AS token, extract(year FROM created_at AT TIME ZONE 'UTC')::int AS y,
       extract(month FROM created_at AT TIME ZONE 'UTC')::int AS m FROM campaigns ORDER BY id LIMIT 1`,
  );
  const revenues = '/v4/accounting/revenues';
  const month = `per-month/${fee.y}/${fee.m}`;
  const revenueSamples: Record<string, GetSample> = {
    [revenues]: { path: revenues, headers: backOffice },
    [`${revenues}/per-month/{year}/{month}`]: { path: `${revenues}/${month}`, headers: backOffice },
    [`${revenues}/chains/{chainId}`]: { path: `${revenues}/chains/31337`, headers: backOffice },
    [`${revenues}/chains/{chainId}/per-month/{year}/{month}`]: {
      path: `${revenues}/chains/31337/${month}`,
      headers: backOffice,
    },
    [`${revenues}/tokens/{chainId}/{tokenAddress}`]: {
      path: `${revenues}/tokens/31337/${fee.token}`,
      headers: backOffice,
    },
    [`${revenues}/tokens/{chainId}/{tokenAddress}/per-month/{year}/{month}`]: {
      path: `${revenues}/tokens/31337/${fee.token}/${month}`,
      headers: backOffice,
    },
  };
  const apiKey = { 'x-api-key': key.rawKey };
  await h
    .request()
    .post('/v4/internal/key-value-stores/quotas')
    .set(backOffice)
    .send({ ownerAddress: session.address, maxConfigs: 5, maxSizeLimit: 100, allowedTypes: ['WHITELIST'] })
    .expect(200);
  const store = (
    await h
      .request()
      .post('/v4/key-value-stores/self')
      .set(apiKey)
      .send({ key: 'samples', type: 'WHITELIST' })
      .expect(200)
  ).body.key as string;
  await h
    .request()
    .put(`/v4/key-value-stores/${store}/entries`)
    .set(apiKey)
    .send({ address: user, value: '{"label":"sample"}' })
    .expect(200);
  await h.request().post('/v4/organizations').set(auth).send({ name: 'samples' }).expect(200);
  // A webhook (a public address literal passes the outbound guard; TEST-NETs do not, #43 F8) with one failed attempt to list.
  const webhook = (await h.request().post('/v4/webhooks').set(apiKey).send({ url: 'https://1.2.3.4/hook' }).expect(200))
    .body.id as string;
  await h.deps.pg.query(
    `INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, delivered, status_code, error, duration_ms, next_attempt_at)
     VALUES ($1, 1, 1, false, 500, 'HTTP 500', 12, now())`,
    [webhook],
  );
  await h
    .request()
    .post('/v4/credits')
    .set(backOffice)
    .send({ creatorId: 'devnet-labs', amount: 100, label: 'samples' })
    .expect(200);
  const leafToken = await one<{ token: string }>(
    'SELECT token FROM rewards WHERE chain_id = 31337 ORDER BY token LIMIT 1',
  );
  const history = { ...chain, startDate: root.from, endDate: root.to };
  // A completed sign-in at the provider: its callback URL is the callback sample.
  const started = await h.request().get('/v4/auth/idp/start').query({ mode: 'login' }).expect(200);
  const callback = await idp.signIn(started.body.authUrl as string, 'samples');
  // The callback comes from the browser that started the flow: with its idp_state cookie.
  const idpState = { Cookie: `idp_state=${cookieOf(started, 'idp_state')}` };
  return {
    '/v4/openapi.json': { path: '/v4/openapi.json' },
    '/v4/health': { path: '/v4/health' },
    '/v4/health/live': { path: '/v4/health/live' },
    '/v4/health/ready': { path: '/v4/health/ready' },
    '/v4/chains': { path: '/v4/chains' },
    '/v4/block-timestamp/block': {
      path: '/v4/block-timestamp/block',
      query: { ...chain, timestamp: Number(block.timestamp) },
    },
    '/v4/block-timestamp/timestamp': {
      path: '/v4/block-timestamp/timestamp',
      query: { ...chain, blockNumber: Number(block.number) },
    },
    '/v4/block-timestamp/bounds': {
      path: '/v4/block-timestamp/bounds',
      query: { ...chain, timestamp: Number(block.timestamp) - 1 },
    },
    '/v4/campaigns': { path: '/v4/campaigns', query: { items: 100 } },
    '/v4/campaigns/tx': { path: '/v4/campaigns/tx', query: { hash: campaign.tx_hash, chainId: 31337 } },
    '/v4/campaigns/{id}': { path: `/v4/campaigns/${campaign.id}` },
    '/v4/campaigns/{id}/metrics': { path: `/v4/campaigns/${campaign.id}/metrics` },
    '/v4/campaigns/{id}/storing-ids': { path: `/v4/campaigns/${campaign.id}/storing-ids` },
    '/v4/campaigns/{id}/linked': { path: `/v4/campaigns/${campaign.id}/linked` },
    '/v4/opportunities': { path: '/v4/opportunities', query: { items: 100 } },
    '/v4/opportunities/count': { path: '/v4/opportunities/count' },
    '/v4/opportunities/summary': { path: '/v4/opportunities/summary' },
    '/v4/opportunities/bins/apr': { path: '/v4/opportunities/bins/apr' },
    '/v4/opportunities/bins/tvl': { path: '/v4/opportunities/bins/tvl' },
    '/v4/opportunities/bins/daily-rewards': { path: '/v4/opportunities/bins/daily-rewards' },
    '/v4/opportunities/aggregate/max/{field}': { path: '/v4/opportunities/aggregate/max/apr' },
    '/v4/opportunities/aggregate/min/{field}': { path: '/v4/opportunities/aggregate/min/tvl' },
    '/v4/opportunities/aggregate/{field}': { path: '/v4/opportunities/aggregate/protocolId' },
    '/v4/opportunities/{id}': { path: `/v4/opportunities/${campaign.opportunity_id}` },
    '/v4/opportunities/{id}/campaigns': { path: `/v4/opportunities/${campaign.opportunity_id}/campaigns` },
    '/v4/opportunities/{id}/storing-ids': { path: `/v4/opportunities/${campaign.opportunity_id}/storing-ids` },
    '/v4/opportunities/{id}/apr-records': { path: `/v4/opportunities/${campaign.opportunity_id}/apr-records` },
    '/v4/opportunities/{id}/tvl-records': { path: `/v4/opportunities/${campaign.opportunity_id}/tvl-records` },
    '/v4/opportunities/{id}/native-apr-records': {
      path: `/v4/opportunities/${campaign.opportunity_id}/native-apr-records`,
    },
    '/v4/opportunities/{id}/daily-rewards-records': {
      path: `/v4/opportunities/${campaign.opportunity_id}/daily-rewards-records`,
    },
    '/v4/tokens': { path: '/v4/tokens' },
    '/v4/tokens/{id}': { path: `/v4/tokens/${token.id}` },
    '/v4/protocols': { path: '/v4/protocols' },
    '/v4/protocols/{id}': { path: '/v4/protocols/morpho' },
    '/v4/roots': { path: '/v4/roots', query: { ...chain, fromTimestamp: root.from, toTimestamp: root.to } },
    '/v4/rewards': { path: '/v4/rewards', query: { ...chain, campaignId: campaign.campaign_id } },
    '/v4/node': { path: '/v4/node', query: { addressOrId: h.chains[0]!.stack.distributor } },
    '/v4/templates': { path: '/v4/templates' },
    '/v4/templates/{id}': { path: '/v4/templates/erc20-hold' },
    '/v4/schemas': { path: '/v4/schemas' },
    '/v4/creators': { path: '/v4/creators' },
    '/v4/creators/campaigns/{id}': { path: `/v4/creators/campaigns/${campaign.id}` },
    '/v4/creators/{creator}': { path: '/v4/creators/devnet-labs' },
    '/v4/creators/{creator}/dashboard': { path: '/v4/creators/devnet-labs/dashboard' },
    '/v4/creators/{creator}/opportunities/count': { path: '/v4/creators/devnet-labs/opportunities/count' },
    '/v4/creators/{creator}/opportunities': { path: '/v4/creators/devnet-labs/opportunities' },
    '/v4/creators/{creator}/campaigns': { path: '/v4/creators/devnet-labs/campaigns' },
    '/v4/auth/nonce/{address}': { path: `/v4/auth/nonce/${session.address}` },
    '/v4/auth/me': { path: '/v4/auth/me', headers: auth },
    '/v4/developer/keys': { path: '/v4/developer/keys/', headers: auth },
    '/v4/developer/keys/usage': { path: '/v4/developer/keys/usage', headers: auth },
    '/v4/developer/keys/{id}/usage': { path: `/v4/developer/keys/${key.id}/usage`, headers: auth },
    '/v4/api-keys/validate': { path: '/v4/api-keys/validate', headers: { 'x-api-key': key.rawKey } },
    '/v4/config/hash/{hash}': { path: `/v4/config/hash/${config.hash}` },
    '/v4/overrides/{id}/previous-configs': { path: `/v4/overrides/${campaign.id}/previous-configs` },
    '/v4/sofr-ratchet/campaign/{campaignId}': { path: `/v4/sofr-ratchet/campaign/${campaign.id}` },
    '/v4/sofr-ratchet/opportunity/{id}': {
      path: `/v4/sofr-ratchet/opportunity/${campaign.opportunity_id}`,
      query: { anchor: Number(block.timestamp) - 86_400 },
    },
    '/v4/enums': { path: '/v4/enums' },
    '/v4/events': { path: '/v4/events', query: { limit: 5 } },
    '/v4/enums/{enumName}': { path: '/v4/enums/CampaignType' },
    '/v4/enums/{enumName}/convert/{value}': { path: '/v4/enums/CampaignType/convert/1' },
    '/v4/claims': { path: '/v4/claims' },
    '/v4/claims/history/{address}': { path: `/v4/claims/history/${user}` },
    '/v4/claims/latest': { path: '/v4/claims/latest' },
    '/v4/claims/status': { path: '/v4/claims/status' },
    '/v4/claims/count/total': { path: '/v4/claims/count/total' },
    '/v4/claims/count': { path: '/v4/claims/count', query: chain },
    '/v4/users/{address}/rewards': { path: `/v4/users/${user}/rewards`, query: { ...chain, breakdownPage: 0 } },
    '/v4/users/{address}/terms': { path: `/v4/users/${user}/terms`, query: chain },
    '/v4/users/{address}/recipient/{token}': { path: `/v4/users/${user}/recipient/${token.address}`, query: chain },
    '/v4/users/{address}/operator/{operatorAddress}': {
      path: `/v4/users/${user}/operator/${session.address}`,
      query: chain,
    },
    '/v4/users/{address}': { path: `/v4/users/${user}` },
    '/v4/campaign-lists/{owner}': { path: `/v4/campaign-lists/${session.address}` },
    '/v4/campaign-lists/{owner}/{name}': { path: `/v4/campaign-lists/${session.address}/samples` },
    '/v4/users/{address}/rewards/breakdowns': {
      path: `/v4/users/${user}/rewards/breakdowns`,
      query: { chainIds: 31337 },
    },
    '/v4/auth/idp/start': { path: '/v4/auth/idp/start', query: { mode: 'login' } },
    '/v4/auth/idp/callback': { path: `/v4/auth/idp/callback${callback.search}`, headers: idpState },
    '/v4/key-value-stores/self': { path: '/v4/key-value-stores/self', headers: apiKey },
    '/v4/key-value-stores/{key}/entries': { path: `/v4/key-value-stores/${store}/entries` },
    '/v4/key-value-stores/{key}/entries/{address}': { path: `/v4/key-value-stores/${store}/entries/${user}` },
    '/v4/campaigns/{id}/privacy': { path: `/v4/campaigns/${campaign.id}/privacy`, headers: backOffice },
    '/v4/campaigns/{id}/access/list': { path: `/v4/campaigns/${campaign.id}/access/list`, headers: backOffice },
    '/v4/organizations': { path: '/v4/organizations', headers: auth },
    '/v4/webhooks': { path: '/v4/webhooks', headers: apiKey },
    '/v4/webhooks/{id}': { path: `/v4/webhooks/${webhook}`, headers: apiKey },
    '/v4/webhooks/{id}/deliveries': { path: `/v4/webhooks/${webhook}/deliveries`, headers: apiKey },
    '/v4/credits/pricing': { path: '/v4/credits/pricing' },
    '/v4/credits/{creatorId}': { path: '/v4/credits/devnet-labs' },
    '/v4/credits/{creatorId}/operations': { path: '/v4/credits/devnet-labs/operations' },
    '/v4/historical/campaign/{campaignId}': {
      path: `/v4/historical/campaign/${campaign.campaign_id}`,
      query: history,
      headers: backOffice,
    },
    '/v4/historical/recipient/{recipient}': {
      path: `/v4/historical/recipient/${user}`,
      query: history,
      headers: backOffice,
    },
    '/v4/diffs/leaves': {
      path: '/v4/diffs/leaves',
      query: { ...chain, tokenAddress: leafToken.token },
      headers: backOffice,
    },
    '/v4/diffs/leaf-breakdowns': {
      path: '/v4/diffs/leaf-breakdowns',
      query: { ...chain, tokenAddress: leafToken.token },
      headers: backOffice,
    },
    '/v4/diffs/leaf-tokens': { path: '/v4/diffs/leaf-tokens', query: chain, headers: backOffice },
    '/v4/campaigns/count': { path: '/v4/campaigns/count', query: { test: 'true' } },
    '/v4/campaigns/count/by-chains': { path: '/v4/campaigns/count/by-chains', query: { grain: 'month' } },
    '/v4/campaigns/count/by-types': { path: '/v4/campaigns/count/by-types' },
    '/v4/campaigns/count/by-protocols': { path: '/v4/campaigns/count/by-protocols', query: { test: 'true' } },
    ...revenueSamples,
    '/v4/internal/jobs': { path: '/v4/internal/jobs', headers: backOffice },
    '/v4/internal/dependencies': { path: '/v4/internal/dependencies', headers: backOffice },
    '/v4/rewards/total': { path: '/v4/rewards/total', query: { ...chain, campaignId: campaign.campaign_id } },
    '/v4/rewards/count': { path: '/v4/rewards/count', query: { ...chain, token: leafToken.token } },
    '/v4/rewards/campaign/{campaignId}/total': {
      path: `/v4/rewards/campaign/${campaign.campaign_id}/total`,
      query: chain,
    },
    '/v4/rewards/campaign/{campaignId}/count': {
      path: `/v4/rewards/campaign/${campaign.campaign_id}/count`,
      query: chain,
    },
    '/v4/rewards/token/total': { path: '/v4/rewards/token/total', query: { ...chain, address: leafToken.token } },
    '/v4/rewards/token/count': { path: '/v4/rewards/token/count', query: { ...chain, address: leafToken.token } },
    '/v4/rewards/unclaim': { path: '/v4/rewards/unclaim', query: { ...chain, campaignIds: campaign.campaign_id } },
    '/v4/rewards/total/distributed': { path: '/v4/rewards/total/distributed' },
    '/v4/rewards/total/distributed/by-chains': {
      path: '/v4/rewards/total/distributed/by-chains',
      query: { grain: 'month' },
    },
    '/v4/rewards/total/distributed/by-types': { path: '/v4/rewards/total/distributed/by-types' },
    '/v4/rewards/total/distributed/by-protocols': { path: '/v4/rewards/total/distributed/by-protocols' },
    '/v4/rewards/total/distributed/by-tokens': { path: '/v4/rewards/total/distributed/by-tokens' },
    '/v4/rewards/total/distributed/by-opportunities': { path: '/v4/rewards/total/distributed/by-opportunities' },
    '/v4/users/{address}/rewards/summary': { path: `/v4/users/${user}/rewards/summary`, query: chain },
    // #33 parity reads
    '/v4/prices': { path: '/v4/prices', query: chain },
    '/v4/prices/symbol/{symbol}': { path: `/v4/prices/symbol/${rewardToken.symbol}` },
    '/v4/prices/history': { path: '/v4/prices/history', query: { ...chain, address: rewardToken.address } },
    '/v4/tokens/prices/history': { path: '/v4/tokens/prices/history', query: { symbol: rewardToken.symbol } },
    // #46 programs
    '/v4/programs': { path: '/v4/programs' },
    '/v4/programs/count': { path: '/v4/programs/count' },
    '/v4/programs/{idOrSlug}': { path: '/v4/programs/openapi-samples' },
    '/v4/roots/live': { path: '/v4/roots/live' },
    '/v4/tokens/reward': { path: '/v4/tokens/reward' },
    '/v4/tokens/reward/{chainId}': { path: '/v4/tokens/reward/31337' },
    '/v4/tokens/balances': { path: '/v4/tokens/balances', query: { ...chain, userAddress: user } },
    '/v4/tokens/{id}/allowance/{owner}/{spender}': {
      path: `/v4/tokens/${rewardToken.id}/allowance/${user}/${session.address}`,
    },
    // #46 disputes and blacklists (h-disputes); one blacklist entry so the list, map and check answer with data.
    '/v4/disputes': { path: '/v4/disputes' },
    '/v4/disputes/{chainId}': { path: '/v4/disputes/31337' },
    '/v4/roots/dispute': { path: '/v4/roots/dispute' },
    '/v4/roots/reports/{chainId}': { path: '/v4/roots/reports/31337' },
    '/v4/blacklists': { path: '/v4/blacklists' },
    '/v4/blacklists/mapping': { path: '/v4/blacklists/mapping' },
    '/v4/blacklists/check/{address}': { path: `/v4/blacklists/check/${blacklisted}` },
    // #46 look-ups: the demo's concentrated-liquidity pool (or, without one, a pool no campaign names: `{}`).
    '/v4/clamm/pools/{chainId}': { path: '/v4/clamm/pools/31337' },
    '/v4/clamm/pools/{chainId}/{poolId}': { path: `/v4/clamm/pools/31337/${pool}` },
    '/v4/clamm/pools/protocol/{chainId}/{protocol}': { path: '/v4/clamm/pools/protocol/31337/uniswap-v3' },
    '/v4/clamm/pools/protocol/{chainId}/{protocol}/{poolId}': {
      path: `/v4/clamm/pools/protocol/31337/uniswap-v3/${pool}`,
    },
    '/v4/transactions/find-creation-hash': {
      path: '/v4/transactions/find-creation-hash',
      query: { ...chain, campaignId: campaign.campaign_id },
    },
    '/v4/transactions/campaigns': { path: '/v4/transactions/campaigns', query: { ...chain, hash: campaign.tx_hash } },
    '/v4/transactions/campaign-ids': {
      path: '/v4/transactions/campaign-ids',
      query: { ...chain, hash: campaign.tx_hash },
    },
    '/v4/node/status': { path: '/v4/node/status' },
    '/v4/node/last-block': { path: '/v4/node/last-block', query: chain },
    '/v4/etl-health': { path: '/v4/etl-health', query: { maxAgeMinutes: 10_080 } },
    // #46 reference data: counts and the audit log (the blacklist and program writes above are in it).
    '/v4/tokens/count': { path: '/v4/tokens/count' },
    '/v4/chains/count': { path: '/v4/chains/count' },
    '/v4/protocols/count': { path: '/v4/protocols/count' },
    '/v4/templates/count': { path: '/v4/templates/count' },
    '/v4/audit': { path: '/v4/audit', headers: backOffice },
  };
}
