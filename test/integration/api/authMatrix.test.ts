import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { signSession } from '../../../api/identity/jwt.js';
import { routeOperations, type RouteOperation } from '../../../api/openapi/routeLayers.js';
import { createRoutes } from '../../../api/routes/index.js';
import { HARDHAT_TEST_KEYS } from '../../../contracts/clients.js';
import { createHarness, type Harness } from '../../helpers/harness.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { login } from './authFlow.js';
import { createApiKey, createOwnedResources } from './ownedResources.js';

type Credential = 'none' | 'malformed' | 'expired' | 'revoked' | 'otherOwner' | 'correct' | 'apiKeyOnly' | 'backOffice';
const CREDENTIALS: Credential[] = [
  'none',
  'malformed',
  'expired',
  'revoked',
  'otherOwner',
  'correct',
  'apiKeyOnly',
  'backOffice',
];
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a row needs from the suite's fixtures: ids of alice's resources, fresh ones for destructive calls. */
type Fixtures = {
  keyId: string;
  freshKeyId(): Promise<string>;
  list: string;
  freshList(): Promise<string>;
  kvKey: string;
  freshKvKey(): Promise<string>;
  entry: string;
  freshEntry(): Promise<string>;
  campaign: string;
  grantee(): Promise<string>;
  unique(): string;
  alice: string;
  webhook: string;
  freshWebhook(): Promise<string>;
};
/** A fresh lower-case slug id (protocols, creators), unique per call. */
const slugOf = (f: Fixtures) =>
  `m-${f.unique()}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 60);

type Row = {
  method: Method;
  route: string;
  path: (f: Fixtures) => string | Promise<string>;
  body?: (f: Fixtures) => object;
  expected: number[];
};

const ALICE_ENTRY = `0x${'a1'.repeat(20)}`;
/** A public address literal (not a special-purpose range, #43 F8): passes the webhooks' outbound guard without DNS; nothing is delivered. */
const WEBHOOK_URL = 'https://1.2.3.4/hook';
const row = (method: Method, route: string, expected: number[], path?: Row['path'], body?: Row['body']): Row => ({
  method,
  route,
  path: path ?? (() => route),
  body,
  expected,
});

/**
 * The one table: every route that takes a credential × every kind of credential → the exact status.
 * "correct" is alice's session plus alice's API key, "otherOwner" bob's session plus key, "revoked"
 * a revoked session plus a revoked key, "backOffice" the back-office token alone. Routes are named
 * as the router declares them; the completeness test below fails for any route of the app that is
 * in neither this table nor PUBLIC_ROUTES.
 */
const MATRIX: Row[] = [
  //                                                               none mal  exp  rev  other corr key  bo
  row('get', '/v4/auth/me', /*                                    */ [401, 401, 401, 401, 200, 200, 401, 401]),
  row('delete', '/v4/auth/revoke', /*                             */ [401, 401, 401, 401, 200, 200, 401, 401]),
  row(
    'post',
    '/v4/auth/link/wallet',
    /*   IdP off: 404 after auth */ [401, 401, 401, 401, 404, 404, 401, 401],
    undefined,
    () => ({ address: ALICE_ENTRY, message: 'm', signature: '0x11' }),
  ),
  row(
    'post',
    '/v4/developer/keys',
    /*                            */ [401, 401, 401, 401, 200, 200, 401, 401],
    undefined,
    () => ({ description: 'matrix' }),
  ),
  row('get', '/v4/developer/keys', /*                             */ [401, 401, 401, 401, 200, 200, 401, 401]),
  row('get', '/v4/developer/keys/usage', /*                       */ [401, 401, 401, 401, 200, 200, 401, 401]),
  row(
    'get',
    '/v4/developer/keys/:id/usage',
    /*                   */ [401, 401, 401, 401, 404, 200, 401, 401],
    (f) => `/v4/developer/keys/${f.keyId}/usage`,
  ),
  row(
    'patch',
    '/v4/developer/keys/:id',
    /*                       */ [401, 401, 401, 401, 404, 200, 401, 401],
    (f) => `/v4/developer/keys/${f.keyId}`,
    () => ({ description: 'matrix' }),
  ),
  row(
    'delete',
    '/v4/developer/keys/:id',
    /*                      */ [401, 401, 401, 401, 404, 200, 401, 401],
    async (f) => `/v4/developer/keys/${await f.freshKeyId()}`,
  ),
  row('get', '/v4/api-keys/validate', /*                          */ [401, 401, 401, 401, 200, 200, 200, 401]),
  row(
    'post',
    '/v4/campaign-lists',
    /*                            */ [401, 401, 401, 401, 200, 200, 200, 401],
    undefined,
    (f) => ({ name: f.unique() }),
  ),
  row(
    'patch',
    '/v4/campaign-lists/:name',
    /*                     */ [401, 401, 401, 401, 404, 200, 200, 401],
    (f) => `/v4/campaign-lists/${f.list}`,
    () => ({ add: ['1'] }),
  ),
  row(
    'delete',
    '/v4/campaign-lists/:name',
    /*                    */ [401, 401, 401, 401, 404, 200, 200, 401],
    async (f) => `/v4/campaign-lists/${await f.freshList()}`,
  ),
  row(
    'post',
    '/v4/organizations',
    /*                             */ [401, 401, 401, 401, 200, 200, 200, 401],
    undefined,
    (f) => ({ name: f.unique() }),
  ),
  row('get', '/v4/organizations', /*                              */ [401, 401, 401, 401, 200, 200, 200, 401]),
  row(
    'post',
    '/v4/internal/key-value-stores/quotas',
    /*          */ [401, 401, 401, 401, 403, 403, 403, 200],
    undefined,
    () => ({ ownerAddress: ALICE_ENTRY, maxConfigs: 1, maxSizeLimit: 1, allowedTypes: ['WHITELIST'] }),
  ),
  row(
    'post',
    '/v4/key-value-stores/self',
    /*   bob has no quota  */ [401, 401, 401, 401, 403, 200, 200, 401],
    undefined,
    (f) => ({ key: f.unique(), type: 'WHITELIST' }),
  ),
  row('get', '/v4/key-value-stores/self', /*                      */ [401, 401, 401, 401, 200, 200, 200, 401]),
  row(
    'patch',
    '/v4/key-value-stores/self/:key',
    /*               */ [401, 401, 401, 401, 404, 200, 200, 401],
    (f) => `/v4/key-value-stores/self/${f.kvKey}`,
    () => ({ description: 'matrix' }),
  ),
  row(
    'delete',
    '/v4/key-value-stores/self/:key',
    /*              */ [401, 401, 401, 401, 404, 200, 200, 401],
    async (f) => `/v4/key-value-stores/self/${await f.freshKvKey()}`,
  ),
  row(
    'put',
    '/v4/key-value-stores/:key/entries',
    /*              */ [401, 401, 401, 401, 403, 200, 200, 401],
    (f) => `/v4/key-value-stores/${f.kvKey}/entries`,
    () => ({ address: ALICE_ENTRY, value: '{}' }),
  ),
  row(
    'put',
    '/v4/key-value-stores/:key/entries/batch',
    /*        */ [401, 401, 401, 401, 403, 200, 200, 401],
    (f) => `/v4/key-value-stores/${f.kvKey}/entries/batch`,
    () => ({ entries: [{ address: ALICE_ENTRY, value: '{}' }] }),
  ),
  // alice's store is not publicly readable: reads need its owner or the back office.
  row(
    'get',
    '/v4/key-value-stores/:key/entries',
    /*              */ [401, 401, 401, 401, 403, 200, 200, 200],
    (f) => `/v4/key-value-stores/${f.kvKey}/entries`,
  ),
  row(
    'get',
    '/v4/key-value-stores/:key/entries/:address',
    /*     */ [401, 401, 401, 401, 403, 200, 200, 200],
    (f) => `/v4/key-value-stores/${f.kvKey}/entries/${f.entry}`,
  ),
  row(
    'delete',
    '/v4/key-value-stores/:key/entries/:address',
    /*  */ [401, 401, 401, 401, 403, 200, 200, 200],
    async (f) => `/v4/key-value-stores/${f.kvKey}/entries/${await f.freshEntry()}`,
  ),
  row(
    'patch',
    '/v4/campaigns/:id/privacy',
    /*                    */ [401, 401, 401, 401, 403, 200, 200, 200],
    (f) => `/v4/campaigns/${f.campaign}/privacy`,
    () => ({ recipientsCanView: true }),
  ),
  row(
    'get',
    '/v4/campaigns/:id/privacy',
    /*                      */ [401, 401, 401, 401, 403, 200, 200, 200],
    (f) => `/v4/campaigns/${f.campaign}/privacy`,
  ),
  row(
    'post',
    '/v4/campaigns/:id/access/grant',
    /*                */ [401, 401, 401, 401, 403, 200, 200, 200],
    (f) => `/v4/campaigns/${f.campaign}/access/grant`,
    () => ({ userAddress: ALICE_ENTRY }),
  ),
  row(
    'delete',
    '/v4/campaigns/:id/access/revoke',
    /*             */ [401, 401, 401, 401, 403, 200, 200, 200],
    async (f) => `/v4/campaigns/${f.campaign}/access/revoke?to=${await f.grantee()}`,
  ),
  row(
    'post',
    '/v4/credits',
    /*                                   */ [401, 401, 401, 401, 403, 403, 403, 200],
    undefined,
    () => ({ creatorId: 'matrix', amount: 5, label: 'matrix' }),
  ),
  row(
    'post',
    '/v4/credits/subtract',
    /*                          */ [401, 401, 401, 401, 403, 403, 403, 200],
    undefined,
    () => ({ creatorId: 'matrix', amount: 1, label: 'matrix' }),
  ),
  row(
    'put',
    '/v4/credits/:creatorId/allowance',
    /*               */ [401, 401, 401, 401, 403, 403, 403, 200],
    () => '/v4/credits/matrix/allowance',
    () => ({ maxNegativeBalance: 10 }),
  ),
  // No verified root in this suite: the back office gets past the guard and hears 404.
  row(
    'get',
    '/v4/historical/campaign/:campaignId',
    /*            */ [401, 401, 401, 401, 403, 403, 403, 404],
    (f) => `/v4/historical/campaign/${f.campaign}?chainId=31337&startDate=1&endDate=2`,
  ),
  row(
    'get',
    '/v4/historical/recipient/:recipient',
    /*            */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => `/v4/historical/recipient/${ALICE_ENTRY}?chainId=31337&startDate=1&endDate=2`,
  ),
  row(
    'get',
    '/v4/diffs/leaves',
    /*                               */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => `/v4/diffs/leaves?chainId=31337&tokenAddress=${ALICE_ENTRY}`,
  ),
  row(
    'get',
    '/v4/diffs/leaf-breakdowns',
    /*                      */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => `/v4/diffs/leaf-breakdowns?chainId=31337&tokenAddress=${ALICE_ENTRY}`,
  ),
  row(
    'get',
    '/v4/diffs/leaf-tokens',
    /*                          */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/diffs/leaf-tokens?chainId=31337',
  ),
  // Fee revenue (#33): back office like /v4/historical and /v4/diffs; the back office hears 200 (no campaign: zeros).
  ...(
    [
      ['/v4/accounting/revenues', () => '/v4/accounting/revenues'],
      ['/v4/accounting/revenues/per-month/:year/:month', () => '/v4/accounting/revenues/per-month/2026/1'],
      ['/v4/accounting/revenues/chains/:chainId', () => '/v4/accounting/revenues/chains/31337'],
      [
        '/v4/accounting/revenues/chains/:chainId/per-month/:year/:month',
        () => '/v4/accounting/revenues/chains/31337/per-month/2026/1',
      ],
      [
        '/v4/accounting/revenues/tokens/:chainId/:tokenAddress',
        () => `/v4/accounting/revenues/tokens/31337/${ALICE_ENTRY}`,
      ],
      [
        '/v4/accounting/revenues/tokens/:chainId/:tokenAddress/per-month/:year/:month',
        () => `/v4/accounting/revenues/tokens/31337/${ALICE_ENTRY}/per-month/2026/1`,
      ],
    ] as const
  ).map(([route, url]) => row('get', route, [401, 401, 401, 401, 403, 403, 403, 200], url)),
  row(
    'post',
    '/v4/users/:address/terms',
    /*  own wallet only      */ [401, 401, 401, 401, 403, 200, 401, 401],
    (f) => `/v4/users/${f.alice}/terms`,
    () => ({ chainId: 31337 }),
  ),
  // No opportunity in this suite: the back office gets past the guard and hears 404.
  row(
    'patch',
    '/v4/opportunities/:id',
    /*                        */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/opportunities/123',
    () => ({ tags: ['x'] }),
  ),
  row(
    'patch',
    '/v4/opportunities/:id/tags',
    /*                   */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/opportunities/123/tags',
    () => ({ add: ['x'] }),
  ),
  row(
    'post',
    '/v4/programs',
    /*                                 */ [401, 401, 401, 401, 403, 403, 403, 201],
    undefined,
    (f) => ({ name: `Program ${f.unique()}` }),
  ),
  // No program of that slug: the back office gets past the guard and hears 404.
  row(
    'patch',
    '/v4/programs/:idOrSlug',
    /*                       */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/programs/no-such-program',
    () => ({ name: 'x' }),
  ),
  // #46 blacklists: back-office writes; the address is nobody's, so removing it answers false.
  row(
    'post',
    '/v4/blacklists',
    /*                              */ [401, 401, 401, 401, 403, 403, 403, 200],
    undefined,
    () => ({ chainId: 31337, userAddress: `0x${'b1'.repeat(20)}`, reason: 'matrix' }),
  ),
  row(
    'delete',
    '/v4/blacklists/user/:address',
    /*                */ [401, 401, 401, 401, 403, 403, 403, 200],
    () => `/v4/blacklists/user/0x${'b2'.repeat(20)}`,
  ),
  // Reference data curation and the audit log (#46): unknown ids answer 404 once past the guard.
  row(
    'post',
    '/v4/tokens',
    /*      no ERC20 at that address */ [401, 401, 401, 401, 403, 403, 403, 400],
    undefined,
    () => ({ chainId: 31337, address: `0x${'e1'.repeat(20)}`, icon: '', verified: false }),
  ),
  row(
    'patch',
    '/v4/tokens/:id',
    /*                          */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/tokens/123',
    () => ({ verified: true }),
  ),
  row(
    'patch',
    '/v4/protocols/:id',
    /*                       */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/protocols/no-such-protocol',
    () => ({ name: 'x' }),
  ),
  row(
    'post',
    '/v4/protocols',
    /*                            */ [401, 401, 401, 401, 403, 403, 403, 201],
    undefined,
    (f) => ({
      id: slugOf(f),
      name: 'matrix',
      icon: 'https://icons.example.org/m.svg',
      url: 'https://m.example.org',
      description: 'matrix',
      tags: [],
    }),
  ),
  row(
    'post',
    '/v4/templates',
    /*                            */ [401, 401, 401, 401, 403, 403, 403, 201],
    undefined,
    () => ({ name: 'matrix', baseConfig: { campaignType: 1 }, completionConfig: {} }),
  ),
  row(
    'patch',
    '/v4/templates/:id',
    /*                       */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/templates/no-such-template',
    () => ({ name: 'x' }),
  ),
  row(
    'put',
    '/v4/templates/:id',
    /*                         */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/templates/no-such-template',
    () => ({ name: 'x' }),
  ),
  row(
    'delete',
    '/v4/templates/:id',
    /*                      */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/templates/no-such-template',
  ),
  row(
    'patch',
    '/v4/chains/:chainId',
    /*                     */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/chains/999999',
    () => ({ name: 'x' }),
  ),
  row(
    'post',
    '/v4/creators',
    /*                             */ [401, 401, 401, 401, 403, 403, 403, 201],
    undefined,
    (f) => ({
      id: slugOf(f),
      name: 'matrix',
      addresses: [`0x${'e2'.repeat(20)}`],
    }),
  ),
  row(
    'patch',
    '/v4/creators/:creator',
    /*                   */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/creators/no-such-creator',
    () => ({ name: 'x' }),
  ),
  row(
    'delete',
    '/v4/creators/:creator',
    /*                  */ [401, 401, 401, 401, 403, 403, 403, 404],
    () => '/v4/creators/no-such-creator',
  ),
  row('get', '/v4/audit', /*                                       */ [401, 401, 401, 401, 403, 403, 403, 200]),
  row('get', '/v4/internal/jobs', /*                               */ [401, 401, 401, 401, 403, 403, 403, 200]),
  row('get', '/v4/internal/dependencies', /*                       */ [401, 401, 401, 401, 403, 403, 403, 200]),
  row(
    'post',
    '/v4/internal/jobs/:name/run',
    /*                   */ [401, 401, 401, 401, 403, 403, 403, 200],
    () => '/v4/internal/jobs/benchmark-rate/run',
  ),
  row(
    'post',
    '/v4/internal/jobs/:name/pause',
    /*                 */ [401, 401, 401, 401, 403, 403, 403, 200],
    () => '/v4/internal/jobs/benchmark-rate/pause',
  ),
  row(
    'post',
    '/v4/internal/jobs/:name/resume',
    /*                */ [401, 401, 401, 401, 403, 403, 403, 200],
    () => '/v4/internal/jobs/benchmark-rate/resume',
  ),
  row(
    'put',
    '/v4/internal/jobs/:name/schedule',
    /*               */ [401, 401, 401, 401, 403, 403, 403, 200],
    () => '/v4/internal/jobs/benchmark-rate/schedule',
    () => ({ cron: null }),
  ),
  row(
    'get',
    '/v4/campaigns/:id/access/list',
    /*                  */ [401, 401, 401, 401, 403, 200, 200, 200],
    (f) => `/v4/campaigns/${f.campaign}/access/list`,
  ),
  row(
    'post',
    '/v4/webhooks',
    /*   bob creates his own   */ [401, 401, 401, 401, 200, 200, 200, 401],
    undefined,
    () => ({ url: WEBHOOK_URL }),
  ),
  row('get', '/v4/webhooks', /*                                   */ [401, 401, 401, 401, 200, 200, 200, 401]),
  row(
    'get',
    '/v4/webhooks/:id',
    /*                             */ [401, 401, 401, 401, 404, 200, 200, 401],
    (f) => `/v4/webhooks/${f.webhook}`,
  ),
  row(
    'patch',
    '/v4/webhooks/:id',
    /*                           */ [401, 401, 401, 401, 404, 200, 200, 401],
    (f) => `/v4/webhooks/${f.webhook}`,
    () => ({ enabled: true }),
  ),
  row(
    'delete',
    '/v4/webhooks/:id',
    /*                          */ [401, 401, 401, 401, 404, 200, 200, 401],
    async (f) => `/v4/webhooks/${await f.freshWebhook()}`,
  ),
  row(
    'get',
    '/v4/webhooks/:id/deliveries',
    /*                  */ [401, 401, 401, 401, 404, 200, 200, 401],
    (f) => `/v4/webhooks/${f.webhook}/deliveries`,
  ),
];

/** Routes that take no credential (some read one when given, e.g. showPrivate, but never require it). */
const PUBLIC_ROUTES = [
  'GET /v4/openapi.json',
  'GET /v4/health',
  'GET /v4/health/live',
  'GET /v4/health/ready',
  'GET /v4/chains',
  'GET /v4/block-timestamp/block',
  'GET /v4/block-timestamp/timestamp',
  'GET /v4/block-timestamp/bounds',
  'GET /v4/campaigns',
  'POST /v4/campaigns/generate-payload',
  'GET /v4/campaigns/tx',
  'GET /v4/campaigns/count',
  'GET /v4/campaigns/count/by-chains',
  'GET /v4/campaigns/count/by-types',
  'GET /v4/campaigns/count/by-protocols',
  'GET /v4/campaigns/:id',
  'GET /v4/campaigns/:id/metrics',
  'GET /v4/campaigns/:id/storing-ids',
  'GET /v4/campaigns/:id/linked',
  'GET /v4/opportunities',
  'GET /v4/opportunities/count',
  'GET /v4/opportunities/summary',
  'GET /v4/opportunities/bins/apr',
  'GET /v4/opportunities/bins/tvl',
  'GET /v4/opportunities/bins/daily-rewards',
  'GET /v4/opportunities/aggregate/max/:field',
  'GET /v4/opportunities/aggregate/min/:field',
  'GET /v4/opportunities/aggregate/:field',
  'GET /v4/opportunities/:id',
  'GET /v4/opportunities/:id/campaigns',
  'GET /v4/opportunities/:id/storing-ids',
  'GET /v4/opportunities/:id/apr-records',
  'GET /v4/opportunities/:id/tvl-records',
  'GET /v4/opportunities/:id/daily-rewards-records',
  'GET /v4/opportunities/:id/native-apr-records',
  'GET /v4/tokens',
  'GET /v4/tokens/:id',
  'GET /v4/tokens/count',
  'GET /v4/chains/count',
  'GET /v4/protocols/count',
  'GET /v4/templates/count',
  'GET /v4/protocols',
  'GET /v4/protocols/:id',
  'GET /v4/roots',
  'GET /v4/rewards',
  'GET /v4/node',
  // Look-ups of #46: public reads (campaigns in them by the caller's visibility: privacyMatrix.test.ts).
  'GET /v4/node/status',
  'GET /v4/node/last-block',
  'GET /v4/etl-health',
  'GET /v4/clamm/pools/protocol/:chainId/:protocol',
  'GET /v4/clamm/pools/protocol/:chainId/:protocol/:poolId',
  'GET /v4/clamm/pools/:chainId',
  'GET /v4/clamm/pools/:chainId/:poolId',
  'GET /v4/transactions/find-creation-hash',
  'GET /v4/transactions/campaigns',
  'GET /v4/transactions/campaign-ids',
  'GET /v4/templates',
  'GET /v4/templates/:id',
  'GET /v4/schemas',
  'GET /v4/creators',
  'GET /v4/creators/campaigns/:id',
  'GET /v4/creators/:creator',
  'GET /v4/creators/:creator/dashboard',
  'GET /v4/creators/:creator/opportunities/count',
  'GET /v4/creators/:creator/opportunities',
  'GET /v4/creators/:creator/campaigns',
  'GET /v4/auth/idp/start',
  'GET /v4/auth/idp/callback',
  'GET /v4/auth/nonce/:address',
  'POST /v4/auth/login',
  'POST /v4/config/store',
  'GET /v4/config/hash/:hash',
  'POST /v4/config/decode/args/createCampaign',
  'POST /v4/overrides/check',
  'GET /v4/overrides/:id/previous-configs',
  'GET /v4/sofr-ratchet/campaign/:campaignId',
  'GET /v4/sofr-ratchet/opportunity/:id',
  'GET /v4/enums',
  'GET /v4/enums/:enumName',
  'GET /v4/enums/:enumName/convert/:value',
  'POST /v4/enums/:enumName/batch-convert',
  'GET /v4/events',
  'GET /v4/claims',
  'GET /v4/claims/history/:address',
  'GET /v4/claims/latest',
  'GET /v4/claims/status',
  'GET /v4/claims/count/total',
  'GET /v4/claims/count',
  'GET /v4/users/:address/rewards',
  'GET /v4/users/:address/rewards/breakdowns',
  'GET /v4/users/:address/terms',
  'GET /v4/users/:address/recipient/:token',
  'GET /v4/users/:address/operator/:operatorAddress',
  'GET /v4/users/:address',
  'GET /v4/campaign-lists/:owner',
  'GET /v4/campaign-lists/:owner/:name',
  'GET /v4/credits/pricing',
  'GET /v4/credits/:creatorId',
  'GET /v4/credits/:creatorId/operations',
  'GET /v4/rewards/total',
  'GET /v4/rewards/count',
  'GET /v4/rewards/campaign/:campaignId/total',
  'GET /v4/rewards/campaign/:campaignId/count',
  'GET /v4/rewards/token/total',
  'GET /v4/rewards/token/count',
  'GET /v4/rewards/unclaim',
  'GET /v4/rewards/total/distributed',
  'GET /v4/rewards/total/distributed/by-chains',
  'GET /v4/rewards/total/distributed/by-types',
  'GET /v4/rewards/total/distributed/by-protocols',
  'GET /v4/rewards/total/distributed/by-tokens',
  'GET /v4/rewards/total/distributed/by-opportunities',
  'GET /v4/users/:address/rewards/summary',
  // #33 parity reads (prices, live roots, reward tokens, balances, allowances)
  'GET /v4/programs',
  'GET /v4/programs/count',
  'GET /v4/programs/:idOrSlug',
  'GET /v4/prices',
  'GET /v4/prices/symbol/:symbol',
  'GET /v4/prices/history',
  'GET /v4/tokens/prices/history',
  'GET /v4/roots/live',
  // #46 disputes and blacklists (h-disputes)
  'GET /v4/disputes',
  'GET /v4/disputes/:chainId',
  'GET /v4/roots/dispute',
  'GET /v4/roots/reports/:chainId',
  'GET /v4/blacklists',
  'GET /v4/blacklists/mapping',
  'GET /v4/blacklists/check/:address',
  'GET /v4/tokens/reward',
  'GET /v4/tokens/reward/:chainId',
  'GET /v4/tokens/balances',
  'GET /v4/tokens/:id/allowance/:owner/:spender',
];

/** Callers refused by every guard; the guard-dependent ones (a session where a key is required…) are added per route from its security. */
type RefusedCaller =
  | 'none'
  | 'jwtAlgNone'
  | 'jwtWrongSecret'
  | 'jwtTampered'
  | 'jwtExpired'
  | 'revokedSession'
  | 'revokedKey'
  | 'backOfficeAsApiKey'
  | 'backOfficeAsCookie'
  | 'backOfficeBasic'
  | 'backOfficeAltered'
  | 'backOfficePrefix'
  | 'sessionOnly'
  | 'apiKeyOnly'
  | 'sessionAndKey';
const ALWAYS_REFUSED: RefusedCaller[] = [
  'none',
  'jwtAlgNone',
  'jwtWrongSecret',
  'jwtTampered',
  'jwtExpired',
  'revokedSession',
  'revokedKey',
  'backOfficeAsApiKey',
  'backOfficeAsCookie',
  'backOfficeBasic',
  'backOfficeAltered',
  'backOfficePrefix',
];

/** Refused callers of one route: the always-refused ones plus the credential kinds its guard does not accept. */
function refusedCallersOf(security: RouteOperation['security']): RefusedCaller[] {
  const accepts = new Set((security ?? [{ jwt: [] }, { apiKey: [] }]).flatMap((s) => Object.keys(s)));
  const out = [...ALWAYS_REFUSED];
  if (!accepts.has('jwt')) out.push('sessionOnly');
  if (!accepts.has('apiKey')) out.push('apiKeyOnly');
  if (!accepts.has('jwt') && !accepts.has('apiKey')) out.push('sessionAndKey');
  return out;
}

/**
 * Path spellings (README "Path spelling"), applied to the literal segments of a route's path (its
 * parameter values are left as they are). `same`: the canonical path after normalization, answered
 * exactly as documented. `missing`: not a path of the app, 404 for every caller whatever the route.
 */
type Segment = { text: string; literal: boolean };
const encodeFirst = (s: string) => s.replace(/^[a-z]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const mapLiterals = (segments: Segment[], f: (text: string, index: number, lastLiteral: boolean) => string) => {
  const last = segments.map((s) => s.literal).lastIndexOf(true);
  return segments.map((s, i) => (s.literal ? f(s.text, i, i === last) : s.text));
};
const SPELLINGS: { name: string; kind: 'same' | 'missing'; spell(segments: Segment[]): string[] }[] = [
  { name: 'as documented', kind: 'same', spell: (s) => s.map((x) => x.text) },
  { name: 'trailing slash', kind: 'same', spell: (s) => [...s.map((x) => x.text), ''] },
  { name: 'percent-encoded letters', kind: 'same', spell: (s) => mapLiterals(s, encodeFirst) },
  { name: 'upper case', kind: 'missing', spell: (s) => mapLiterals(s, (t) => t.toUpperCase()) },
  {
    name: 'mixed case',
    kind: 'missing',
    spell: (s) => mapLiterals(s, (t, i) => (i === 0 ? t : t.charAt(0).toUpperCase() + t.slice(1))),
  },
  {
    name: 'last literal segment upper case',
    kind: 'missing',
    spell: (s) => mapLiterals(s, (t, _, last) => (last ? t.toUpperCase() : t)),
  },
  { name: 'doubled slash', kind: 'missing', spell: (s) => [s[0]!.text, '', ...s.slice(1).map((x) => x.text)] },
  { name: 'dot segment', kind: 'missing', spell: (s) => [s[0]!.text, 'x', '..', ...s.slice(1).map((x) => x.text)] },
  {
    name: 'encoded dot segment',
    kind: 'missing',
    spell: (s) => [s[0]!.text, 'x', '%2E%2E', ...s.slice(1).map((x) => x.text)],
  },
];

/** `/v4/developer/keys/:id` with concrete `/v4/developer/keys/abc?q=1` → segments (literal or not) and the query. */
function segmentsOf(template: string, concrete: string): { segments: Segment[]; query: string } {
  const [path, query = ''] = concrete.split('?');
  const templates = template
    .replace(/(.)\/$/, '$1')
    .split('/')
    .slice(1);
  const texts = path!.split('/').slice(1);
  if (templates.length !== texts.length) throw new Error(`${concrete} does not fit ${template}`);
  return {
    segments: texts.map((text, i) => ({ text, literal: !templates[i]!.startsWith(':') })),
    query: query ? `?${query}` : '',
  };
}
/** Whether `url` (a spelled path) is another route's path with its segments taken as parameter values, e.g. /v4/credits/SUBTRACT as /v4/credits/:creatorId. */
const templateRegex = (template: string) =>
  new RegExp(
    `^${template
      .replace(/(.)\/$/, '$1')
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/:[A-Za-z0-9_]+/g, '[^/]+')}/?$`,
  );
const OTHER_ROUTE_REFUSALS = [400, 401, 403, 404, 405];
const expectedMissing = (url: string, templates: string[]) =>
  templates.some((t) => templateRegex(t).test(url.split('?')[0]!)) ? OTHER_ROUTE_REFUSALS : [404];
const spelled = (spelling: (typeof SPELLINGS)[number], template: string, concrete: string) => {
  const { segments, query } = segmentsOf(template, concrete);
  return `/${spelling.spell(segments).join('/')}${query}`;
};

/** Routes whose guard is a handler check (a private store's entries are readable by its owner and the back office only). */
const HANDLER_GUARDED = ['GET /v4/key-value-stores/:key/entries', 'GET /v4/key-value-stores/:key/entries/:address'];

describe('authorization matrix: every credentialed route × every kind of credential', function () {
  let h: Harness;
  let headersOf: (credential: Credential) => Promise<Record<string, string>>;
  let refusedHeadersOf: (caller: RefusedCaller) => Promise<Record<string, string>>;
  let fixtures: Fixtures;

  before(async function () {
    h = await createHarness({ chainIds: [31337] });
    await h.startJobRunner(); // POST /v4/internal/jobs/{name}/run is answered by a job runner
    // alice: a session, a key, a quota, a private store with one entry, and a campaign she created.
    const own = await createOwnedResources(h, HARDHAT_TEST_KEYS[0], { namePrefix: 'm' });
    const { session: alice, apiKey: aliceKey, unique } = own;
    const bob = await login(h, HARDHAT_TEST_KEYS[1]);
    const bobKey = await createApiKey(h, bob.cookie, 'matrix');
    const revokedSession = await login(h, HARDHAT_TEST_KEYS[0]);
    const revokedKey = await own.newKey();
    await h.request().delete('/v4/auth/revoke').set('Cookie', revokedSession.cookie).expect(200);
    await h.request().delete(`/v4/developer/keys/${revokedKey.id}`).set('Cookie', alice.cookie).expect(200);
    const expired = signSession({
      secret: h.config.jwtSecret,
      address: alice.address,
      tier: 0,
      nowSeconds: Math.floor(Date.now() / 1000) - 2 * 86_400,
    }).token;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      address: alice.address,
      tier: 0,
      provider: 'WALLET',
      jti: '00000000-0000-4000-8000-000000000000',
      iat: now,
      exp: now + 3600,
    };
    const [header, payload, signature] = alice.token.split('.');
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged: Record<string, string> = {
      jwtAlgNone: `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      jwtWrongSecret: jwt.sign(claims, 'not-the-secret-not-the-secret-not-the-secret', { algorithm: 'HS256' }),
      // alice's real signature over claims changed to tier 9 and another address.
      jwtTampered: `${header}.${b64({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), tier: 9, address: `0x${'b0'.repeat(20)}` })}.${signature}`,
      jwtExpired: signSession({
        secret: h.config.jwtSecret,
        address: alice.address,
        tier: 0,
        nowSeconds: now - 2 * 86_400,
      }).token,
    };
    const BO = { authorization: TEST_BACK_OFFICE_TOKEN };
    await h.deps.pg.query("INSERT INTO creators (id, name) VALUES ('matrix', 'Matrix')");
    fixtures = {
      keyId: aliceKey.id,
      freshKeyId: async () => (await own.newKey()).id,
      list: await own.freshList(),
      freshList: own.freshList,
      kvKey: own.kvKey,
      freshKvKey: own.freshKvKey,
      entry: await own.freshEntry(),
      freshEntry: own.freshEntry,
      campaign: own.campaign,
      unique,
      alice: alice.address,
      grantee: own.grantee,
      webhook: '',
      freshWebhook: async () =>
        (
          await h
            .request()
            .post('/v4/webhooks')
            .set({ 'x-api-key': aliceKey.rawKey })
            .send({ url: WEBHOOK_URL })
            .expect(200)
        ).body.id as string,
    };
    fixtures.webhook = await fixtures.freshWebhook();
    headersOf = async (credential): Promise<Record<string, string>> => {
      switch (credential) {
        case 'none':
          return {};
        case 'malformed':
          return { Cookie: 'jwt=not.a.jwt', 'x-api-key': 'rk_not-a-key', authorization: 'Bearer nope' };
        case 'expired':
          return { Cookie: `jwt=${expired}` };
        case 'revoked':
          return { Cookie: revokedSession.cookie, 'x-api-key': revokedKey.rawKey };
        // Fresh sessions: DELETE /v4/auth/revoke consumes the one it is given.
        case 'otherOwner':
          return { Cookie: (await login(h, HARDHAT_TEST_KEYS[1])).cookie, 'x-api-key': bobKey.rawKey };
        case 'correct':
          return { Cookie: (await login(h, HARDHAT_TEST_KEYS[0])).cookie, 'x-api-key': aliceKey.rawKey };
        case 'apiKeyOnly':
          return { 'x-api-key': aliceKey.rawKey };
        case 'backOffice':
          return BO;
      }
    };
    refusedHeadersOf = async (caller): Promise<Record<string, string>> => {
      switch (caller) {
        case 'none':
          return {};
        case 'jwtAlgNone':
        case 'jwtWrongSecret':
        case 'jwtTampered':
        case 'jwtExpired':
          return { Cookie: `jwt=${forged[caller]}`, authorization: `Bearer ${forged[caller]}` };
        case 'revokedSession':
          return { Cookie: revokedSession.cookie };
        case 'revokedKey':
          return { 'x-api-key': revokedKey.rawKey };
        case 'sessionOnly':
          return { Cookie: (await login(h, HARDHAT_TEST_KEYS[0])).cookie };
        case 'apiKeyOnly':
          return { 'x-api-key': aliceKey.rawKey };
        case 'sessionAndKey':
          return { Cookie: (await login(h, HARDHAT_TEST_KEYS[0])).cookie, 'x-api-key': aliceKey.rawKey };
        case 'backOfficeAsApiKey':
          return { 'x-api-key': TEST_BACK_OFFICE_TOKEN };
        case 'backOfficeAsCookie':
          return { Cookie: `jwt=${TEST_BACK_OFFICE_TOKEN}` };
        case 'backOfficeBasic':
          return { authorization: `Basic ${Buffer.from(`admin:${TEST_BACK_OFFICE_TOKEN}`).toString('base64')}` };
        case 'backOfficeAltered':
          return { authorization: `Bearer ${TEST_BACK_OFFICE_TOKEN}x` };
        case 'backOfficePrefix':
          return { authorization: `Bearer ${TEST_BACK_OFFICE_TOKEN.slice(0, -1)}` };
      }
    };
  });
  after(async () => h?.close());

  it('lists every route of the app exactly once, in MATRIX or PUBLIC_ROUTES', function () {
    const routes = createRoutes({
      config: h.config,
      logger: h.deps.logger,
      pg: h.apiPg,
      es: h.deps.es,
      rpc: h.deps.rpc,
    });
    const declared = new Set(
      routes.stack.flatMap((layer) =>
        layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path).replace(/(.)\/$/, '$1')}`),
      ),
    );
    const listed = [...MATRIX.map((r) => `${r.method.toUpperCase()} ${r.route}`), ...PUBLIC_ROUTES];
    expect(listed.length, 'no route listed twice').to.equal(new Set(listed).size);
    expect(
      [...declared].filter((r) => !listed.includes(r)),
      'routes missing from the matrix',
    ).to.deep.equal([]);
    expect(
      listed.filter((r) => !declared.has(r)),
      'listed routes that do not exist',
    ).to.deep.equal([]);
  });

  it('declares a guard on every route of the matrix (a route-level guard, or a handler check listed in HANDLER_GUARDED)', function () {
    const ops = routeOperations(
      createRoutes({ config: h.config, logger: h.deps.logger, pg: h.apiPg, es: h.deps.es, rpc: h.deps.rpc }),
    );
    const keyOf = (op: RouteOperation) => `${op.method.toUpperCase()} ${op.path.replace(/(.)\/$/, '$1')}`;
    const matrixRoutes = new Set(MATRIX.map((r) => `${r.method.toUpperCase()} ${r.route}`));
    expect(
      ops
        .filter((op) => matrixRoutes.has(keyOf(op)) && !op.security && !HANDLER_GUARDED.includes(keyOf(op)))
        .map(keyOf),
      'protected routes without a declared guard',
    ).to.deep.equal([]);
    expect(
      ops.filter((op) => op.security && !matrixRoutes.has(keyOf(op))).map(keyOf),
      'guarded routes missing from MATRIX',
    ).to.deep.equal([]);
  });

  for (const { method, route, path, body, expected } of MATRIX) {
    it(`${method.toUpperCase()} ${route}: ${CREDENTIALS.map((c, i) => `${c} ${expected[i]}`).join(', ')}`, async function () {
      const actual: number[] = [];
      for (const credential of CREDENTIALS) {
        let url = await path(fixtures);
        // DELETE …/access/revoke takes its grantee in the body; the fixture names it in the path.
        const grantee = /[?&]to=(0x[0-9a-f]{40})/.exec(url)?.[1];
        if (grantee) url = url.replace(/\?to=.*/, '');
        let request = h
          .request()
          [method](url)
          .set(await headersOf(credential));
        const payload = grantee ? { userAddress: grantee } : body?.(fixtures);
        if (payload) request = request.send(payload);
        const res = await request;
        actual.push(res.status);
        if (res.status === 401 || res.status === 403)
          expect(res.headers['content-type'], `${credential} body`).to.match(/application\/problem\+json/);
      }
      expect(actual).to.deep.equal(expected);
    });
  }
  const allTemplates = () =>
    routeOperations(
      createRoutes({ config: h.config, logger: h.deps.logger, pg: h.apiPg, es: h.deps.es, rpc: h.deps.rpc }),
    ).map((op) => op.path);

  /** Every protected operation read from the router stack (the walk buildOpenApi does), with a concrete path and body from its MATRIX row. */
  async function protectedOperations() {
    const ops = routeOperations(
      createRoutes({ config: h.config, logger: h.deps.logger, pg: h.apiPg, es: h.deps.es, rpc: h.deps.rpc }),
    );
    const seen = new Set<string>();
    const out: { key: string; method: Method; route: string; url: string; body?: object; callers: RefusedCaller[] }[] =
      [];
    for (const op of ops) {
      const key = `${op.method.toUpperCase()} ${op.path.replace(/(.)\/$/, '$1')}`;
      const row = MATRIX.find((r) => `${r.method.toUpperCase()} ${r.route}` === key);
      if (!row || seen.has(key)) continue;
      seen.add(key);
      const url = (await row.path(fixtures)).replace(/\?to=.*/, '');
      const body = /access\/revoke/.test(row.route) ? { userAddress: ALICE_ENTRY } : row.body?.(fixtures);
      out.push({ key, method: row.method, route: row.route, url, body, callers: refusedCallersOf(op.security) });
    }
    expect(out.length, 'every MATRIX row is a route of the stack').to.equal(MATRIX.length);
    return out;
  }

  for (const spelling of SPELLINGS) {
    it(`refuses every protected route × every refused caller, path spelled: ${spelling.name} (${spelling.kind === 'same' ? '401/403 as documented' : '404, or a refusal of the other route it spells'})`, async function () {
      const wrong: string[] = [];
      const templates = allTemplates();
      for (const op of await protectedOperations()) {
        const url = spelled(spelling, op.route, op.url);
        const expected = spelling.kind === 'same' ? [401, 403] : expectedMissing(url, templates);
        for (const caller of op.callers) {
          let request = h
            .request()
            [op.method](url)
            .set(await refusedHeadersOf(caller));
          if (op.body) request = request.send(op.body);
          const res = await request;
          const ok = expected.includes(res.status);
          if (!ok) wrong.push(`${op.method.toUpperCase()} ${url} as ${caller}: ${res.status}`);
          else expect(res.headers['content-type'], `${url} ${caller}`).to.match(/application\/problem\+json/);
        }
      }
      expect(wrong).to.deep.equal([]);
    });
  }

  it('answers 404 (or a refusal of the other route it spells) for every route spelled in another case, with // or with a dot segment, even to the back office', async function () {
    const ops = routeOperations(
      createRoutes({ config: h.config, logger: h.deps.logger, pg: h.apiPg, es: h.deps.es, rpc: h.deps.rpc }),
    );
    const templates = ops.map((op) => op.path);
    const wrong: string[] = [];
    for (const op of ops) {
      const concrete = op.path.replace(/:[A-Za-z0-9_]+/g, 'x1').replace(/(.)\/$/, '$1');
      for (const spelling of SPELLINGS.filter((s) => s.kind === 'missing')) {
        const url = spelled(spelling, op.path, concrete);
        const res = await h.request()[op.method as Method](url).set({ authorization: TEST_BACK_OFFICE_TOKEN });
        if (!expectedMissing(url, templates).includes(res.status))
          wrong.push(`${op.method.toUpperCase()} ${url}: ${res.status}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });
});
