import { expect } from 'chai';
import {
  getNamedType,
  isInputObjectType,
  isObjectType,
  parse,
  type GraphQLNamedType,
  type GraphQLType,
  type OperationDefinitionNode,
} from 'graphql';
import { createGraphqlSchema } from '../../../api/graphql/schema.js';
import { signSession } from '../../../api/identity/jwt.js';
import { campaignDbId } from '../../../domain/ids.js';
import { indexNames } from '../../../internal/es.js';
import { protocolOf } from '../../../domain/protocols.js';
import { buildOpenApi, type OpenApiDocument } from '../../../api/openapi/buildOpenApi.js';
import { createRoutes } from '../../../api/routes/index.js';
import { TEST_BACK_OFFICE_TOKEN } from '../../helpers/testConfig.js';
import { createReferenceDemo, priceRewardTokensBeforeFirstRoot, type ReferenceDemo } from './referenceDemo.js';

type Caller = 'anonymous' | 'recipient' | 'grantee' | 'creator' | 'backOffice';
const CALLERS: Caller[] = ['anonymous', 'recipient', 'grantee', 'creator', 'backOffice'];

/** One private campaign of the demo, with who is who around it. */
type Subject = {
  name: string;
  recipientsCanView: boolean;
  /** Internal id of its parent campaign, for a sub-campaign. */
  parentId?: string;
  /** Has leaves in the live tree (rewards, claims, metrics). */
  rewarded: boolean;
  id: string;
  onChainId: string;
  opportunityId: string;
  creator: string;
  recipient: string;
  grantee: string;
  /** Its opportunity's type (the protocol it counts for, domain/protocols.ts). */
  opportunityType: string;
  /** The creator's registered slug, when it has one. */
  creatorSlug?: string;
  /** Transaction that created it, and its reward token (lower case). */
  txHash: string;
  rewardToken: string;
  /** At the API's clock, when the matrix started. */
  status: 'past' | 'live' | 'future';
  /** Its own figures while public, read as the back office in before: USD distributed, units of its reward token in the live root. */
  own: { distributedUsd: number; tokenAmount: number };
};

/** A read that can return campaign data: REST path (GET) or GraphQL query, built for one subject. */
type Read = {
  name: string;
  /** The OpenAPI operation the REST path is an instance of (`GET /v4/...`), checked against the document. */
  op?: string;
  rest?: (s: Subject) => string;
  graphql?: (s: Subject) => string;
  pick?: (body: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  /**
   * The read names the subject itself (its ids or its transaction): to a caller who may not see it,
   * it must answer exactly as for a campaign that does not exist (status, body, association header).
   */
  ghost?: true;
};

const CHAIN = 31337;
/** A campaign that does not exist: its on-chain id and internal id (checked absent in before). */
const GHOST_ON_CHAIN_ID = `0x${'ab'.repeat(32)}`;
const GHOST_ID = campaignDbId(CHAIN, GHOST_ON_CHAIN_ID);
const HISTORY = 'startDate=2000-01-01&endDate=2100-01-01';

/**
 * Every route and GraphQL field that can return a campaign, its ids, metrics, rewards, claims or
 * family tree (README "Campaign visibility"). A read added tomorrow that serves campaign data
 * belongs here. Paths are spelled as an attacker would send them: without `showPrivate`, and with it.
 */
const READS: Read[] = [
  { name: 'campaign by id', op: 'GET /v4/campaigns/{id}', rest: (s) => `/v4/campaigns/${s.id}`, ghost: true },
  {
    name: 'campaign by id, showPrivate',
    op: 'GET /v4/campaigns/{id}',
    rest: (s) => `/v4/campaigns/${s.id}?showPrivate=true`,
    ghost: true,
  },
  {
    name: 'campaign by chain-id',
    op: 'GET /v4/campaigns/{id}',
    rest: (s) => `/v4/campaigns/${CHAIN}-${s.onChainId}?showPrivate=true`,
    ghost: true,
  },
  { name: 'campaign list', op: 'GET /v4/campaigns', rest: () => '/v4/campaigns?items=100&test=true' },
  {
    name: 'campaign list, showPrivate',
    op: 'GET /v4/campaigns',
    rest: () => '/v4/campaigns?items=100&test=true&showPrivate=true',
  },
  {
    name: 'campaign list by on-chain id',
    op: 'GET /v4/campaigns',
    rest: (s) => `/v4/campaigns?campaignId=${s.onChainId}&test=true&showPrivate=true`,
    ghost: true,
  },
  {
    name: 'campaign list of a campaign list',
    op: 'GET /v4/campaigns',
    rest: (s) => `/v4/campaigns?campaignLists=${LIST_NAME}&listOwner=${s.creator}&test=true&showPrivate=true`,
  },
  {
    name: 'campaigns of the creation transaction',
    op: 'GET /v4/campaigns/tx',
    rest: (s) => `/v4/campaigns/tx?chainId=${CHAIN}&hash=${s.txHash}`,
  },
  // Look-ups of #46 (the hosted transactions and clamm families).
  {
    name: 'creation transaction of a campaign',
    op: 'GET /v4/transactions/find-creation-hash',
    rest: (s) => `/v4/transactions/find-creation-hash?chainId=${CHAIN}&campaignId=${s.onChainId}`,
    ghost: true,
  },
  {
    name: 'campaigns of a transaction (hosted shape)',
    op: 'GET /v4/transactions/campaigns',
    rest: (s) => `/v4/transactions/campaigns?chainId=${CHAIN}&hash=${s.txHash}`,
  },
  {
    name: 'campaign ids of a transaction',
    op: 'GET /v4/transactions/campaign-ids',
    rest: (s) => `/v4/transactions/campaign-ids?chainId=${CHAIN}&hash=${s.txHash}`,
  },
  { name: 'clamm pools of the chain', op: 'GET /v4/clamm/pools/{chainId}', rest: () => `/v4/clamm/pools/${CHAIN}` },
  {
    name: 'clamm pools of the chain, showPrivate',
    op: 'GET /v4/clamm/pools/{chainId}',
    rest: () => `/v4/clamm/pools/${CHAIN}?showPrivate=true`,
  },
  {
    name: 'clamm pools of a protocol, showPrivate',
    op: 'GET /v4/clamm/pools/protocol/{chainId}/{protocol}',
    rest: () => `/v4/clamm/pools/protocol/${CHAIN}/uniswap-v3?showPrivate=true`,
  },
  // The subjects stand on no pool: one pool by id is read for its route (clammPools.test.ts reads a pool of only private campaigns).
  {
    name: 'clamm pool by id, showPrivate',
    op: 'GET /v4/clamm/pools/{chainId}/{poolId}',
    rest: () => `/v4/clamm/pools/${CHAIN}/0x${'ee'.repeat(20)}?showPrivate=true`,
  },
  {
    name: 'clamm pool of a protocol by id, showPrivate',
    op: 'GET /v4/clamm/pools/protocol/{chainId}/{protocol}/{poolId}',
    rest: () => `/v4/clamm/pools/protocol/${CHAIN}/uniswap-v4/0x${'ee'.repeat(32)}?showPrivate=true`,
  },
  {
    name: 'campaign metrics',
    op: 'GET /v4/campaigns/{id}/metrics',
    rest: (s) => `/v4/campaigns/${s.id}/metrics`,
    ghost: true,
  },
  {
    name: 'campaign privacy settings',
    op: 'GET /v4/campaigns/{id}/privacy',
    rest: (s) => `/v4/campaigns/${s.id}/privacy`,
    ghost: true,
  },
  {
    name: 'campaign access list',
    op: 'GET /v4/campaigns/{id}/access/list',
    rest: (s) => `/v4/campaigns/${s.id}/access/list`,
    ghost: true,
  },
  {
    name: 'creator campaign metrics',
    op: 'GET /v4/creators/campaigns/{id}',
    rest: (s) => `/v4/creators/campaigns/${s.id}`,
    ghost: true,
  },
  // H1 of #29: the creator's campaigns, by address and by slug, with and without a status.
  {
    name: "creator's campaigns",
    op: 'GET /v4/creators/{creator}/campaigns',
    rest: (s) => `/v4/creators/${s.creator}/campaigns`,
  },
  {
    name: "creator's live campaigns",
    op: 'GET /v4/creators/{creator}/campaigns',
    rest: (s) => `/v4/creators/${s.creator}/campaigns?status=LIVE`,
  },
  {
    name: "creator's campaigns by slug",
    op: 'GET /v4/creators/{creator}/campaigns',
    rest: (s) => `/v4/creators/${s.creatorSlug ?? s.creator}/campaigns`,
  },
  {
    name: "creator's opportunities",
    op: 'GET /v4/creators/{creator}/opportunities',
    rest: (s) => `/v4/creators/${s.creator}/opportunities?items=100&test=true`,
  },
  {
    name: "creator's opportunity count",
    op: 'GET /v4/creators/{creator}/opportunities/count',
    rest: (s) => `/v4/creators/${s.creator}/opportunities/count?test=true`,
  },
  {
    name: 'campaign storing ids',
    op: 'GET /v4/campaigns/{id}/storing-ids',
    rest: (s) => `/v4/campaigns/${s.id}/storing-ids`,
    ghost: true,
  },
  {
    name: 'campaign family',
    op: 'GET /v4/campaigns/{id}/linked',
    rest: (s) => `/v4/campaigns/${s.id}/linked`,
    ghost: true,
  },
  // A sub-campaign's parent, read by whoever may read the parent: its family must not announce a hidden child.
  {
    name: "parent's family",
    op: 'GET /v4/campaigns/{id}/linked',
    rest: (s) => `/v4/campaigns/${s.parentId ?? s.id}/linked?campaigns=true`,
  },
  {
    name: "parent's storing ids",
    op: 'GET /v4/campaigns/{id}/storing-ids',
    rest: (s) => `/v4/campaigns/${s.parentId ?? s.id}/storing-ids`,
  },
  {
    name: "parent's record, showPrivate",
    op: 'GET /v4/campaigns/{id}',
    rest: (s) => `/v4/campaigns/${s.parentId ?? s.id}?showPrivate=true`,
  },
  {
    name: 'previous configurations',
    op: 'GET /v4/overrides/{id}/previous-configs',
    rest: (s) => `/v4/overrides/${s.id}/previous-configs`,
    ghost: true,
  },
  {
    name: 'ratchet of the campaign',
    op: 'GET /v4/sofr-ratchet/campaign/{campaignId}',
    rest: (s) => `/v4/sofr-ratchet/campaign/${s.id}`,
    ghost: true,
  },
  {
    name: 'ratchet of the opportunity',
    op: 'GET /v4/sofr-ratchet/opportunity/{id}',
    rest: (s) => `/v4/sofr-ratchet/opportunity/${s.opportunityId}?anchor=0`,
  },
  {
    name: 'stored configuration, attached to the campaign',
    op: 'GET /v4/config/hash/{hash}',
    rest: (s) => `/v4/config/hash/${configHash}?campaignId=${s.onChainId}&distributionChainId=${CHAIN}`,
    ghost: true,
  },
  {
    name: 'campaign lists of the owner',
    op: 'GET /v4/campaign-lists/{owner}',
    rest: (s) => `/v4/campaign-lists/${s.creator}`,
  },
  {
    name: 'one campaign list',
    op: 'GET /v4/campaign-lists/{owner}/{name}',
    rest: (s) => `/v4/campaign-lists/${s.creator}/${LIST_NAME}`,
  },
  // The embedded campaign records; the opportunity document's own aggregates (records' breakdowns) are not covered yet (see README); the campaignId filter is (opportunities.test.ts).
  {
    name: 'opportunity with campaigns',
    op: 'GET /v4/opportunities/{id}/campaigns',
    rest: (s) => `/v4/opportunities/${s.opportunityId}/campaigns`,
    pick: (b) => b.campaigns,
  },
  { name: 'opportunity', op: 'GET /v4/opportunities/{id}', rest: (s) => `/v4/opportunities/${s.opportunityId}` },
  {
    name: 'opportunities with campaigns',
    op: 'GET /v4/opportunities',
    rest: () => '/v4/opportunities?campaigns=true&items=100&test=true',
    pick: (b) => (b as { campaigns: unknown }[]).map((o) => o.campaigns),
  },
  ...(
    [
      ['GET /v4/opportunities', ''],
      ['GET /v4/opportunities/count', '/count'],
      ['GET /v4/opportunities/summary', '/summary'],
      ['GET /v4/opportunities/bins/apr', '/bins/apr'],
      ['GET /v4/opportunities/bins/tvl', '/bins/tvl'],
      ['GET /v4/opportunities/bins/daily-rewards', '/bins/daily-rewards'],
      ['GET /v4/opportunities/aggregate/{field}', '/aggregate/tvl'],
      ['GET /v4/opportunities/aggregate/max/{field}', '/aggregate/max/apr'],
      ['GET /v4/opportunities/aggregate/min/{field}', '/aggregate/min/apr'],
    ] as const
  ).map(
    ([op, suffix]): Read => ({
      name: `opportunities${suffix} filtered by the campaign`,
      op,
      rest: (s) => `/v4/opportunities${suffix}?campaignId=${s.onChainId}&test=true`,
      ghost: true,
    }),
  ),
  {
    name: 'opportunity storing ids',
    op: 'GET /v4/opportunities/{id}/storing-ids',
    rest: (s) => `/v4/opportunities/${s.opportunityId}/storing-ids`,
  },
  {
    name: 'rewards of the campaign',
    op: 'GET /v4/rewards',
    rest: (s) => `/v4/rewards?chainId=${CHAIN}&campaignId=${s.onChainId}`,
    ghost: true,
  },
  ...(['total', 'count'] as const).flatMap((figure): Read[] => [
    {
      name: `reward ${figure} of the campaign`,
      op: `GET /v4/rewards/${figure}`,
      rest: (s) => `/v4/rewards/${figure}?chainId=${CHAIN}&campaignId=${s.onChainId}`,
      ghost: true,
    },
    {
      name: `reward ${figure} of the campaign (hosted path)`,
      op: `GET /v4/rewards/campaign/{campaignId}/${figure}`,
      rest: (s) => `/v4/rewards/campaign/${s.onChainId}/${figure}?chainId=${CHAIN}`,
      ghost: true,
    },
  ]),
  {
    name: 'unclaimed rewards of the campaign',
    op: 'GET /v4/rewards/unclaim',
    rest: (s) => `/v4/rewards/unclaim?chainId=${CHAIN}&campaignIds=${s.onChainId}`,
    ghost: true,
  },
  ...['', '/by-chains', '/by-types', '/by-protocols', '/by-tokens', '/by-opportunities'].map(
    (suffix): Read => ({
      name: `rewards distributed${suffix} by the campaign`,
      op: `GET /v4/rewards/total/distributed${suffix}`,
      rest: (s) => `/v4/rewards/total/distributed${suffix}?campaignId=${s.onChainId}&test=true&showPrivate=true`,
      ghost: true,
    }),
  ),
  {
    name: 'rewards of the recipient',
    op: 'GET /v4/users/{address}/rewards',
    rest: (s) => `/v4/users/${s.recipient}/rewards?chainId=${CHAIN}`,
  },
  {
    name: 'reward breakdowns of the recipient',
    op: 'GET /v4/users/{address}/rewards/breakdowns',
    rest: (s) => `/v4/users/${s.recipient}/rewards/breakdowns?chainIds=${CHAIN}&test=true`,
  },
  {
    name: 'claims of the campaign',
    op: 'GET /v4/claims',
    rest: (s) => `/v4/claims?chainId=${CHAIN}&campaignId=${s.onChainId}`,
    ghost: true,
  },
  { name: 'claims of the chain', op: 'GET /v4/claims', rest: () => `/v4/claims?chainId=${CHAIN}&items=100` },
  {
    name: 'events of the campaign',
    op: 'GET /v4/events',
    rest: (s) => `/v4/events?campaignId=${s.id}&limit=1000`,
    ghost: true,
  },
  { name: 'events of the chain', op: 'GET /v4/events', rest: () => `/v4/events?chainId=${CHAIN}&limit=1000` },
  {
    name: 'claim history of the recipient',
    op: 'GET /v4/claims/history/{address}',
    rest: (s) => `/v4/claims/history/${s.recipient}`,
  },
  {
    name: 'leaf breakdowns of the reward token (back office)',
    op: 'GET /v4/diffs/leaf-breakdowns',
    rest: (s) => `/v4/diffs/leaf-breakdowns?chainId=${CHAIN}&tokenAddress=${s.rewardToken}&items=1000`,
  },
  {
    name: 'reward history of the campaign (back office)',
    op: 'GET /v4/historical/campaign/{campaignId}',
    rest: (s) => `/v4/historical/campaign/${s.onChainId}?chainId=${CHAIN}&${HISTORY}`,
    ghost: true,
  },
  {
    name: 'reward history of the recipient (back office)',
    op: 'GET /v4/historical/recipient/{recipient}',
    rest: (s) => `/v4/historical/recipient/${s.recipient}?chainId=${CHAIN}&${HISTORY}`,
  },
  {
    name: 'GraphQL campaign',
    graphql: (s) => `{ campaign(id: "${s.id}", showPrivate: true) { id campaignId } }`,
    ghost: true,
  },
  {
    name: 'GraphQL campaigns',
    graphql: () => '{ campaigns(filter: { showPrivate: true, test: true }, items: 100) { id campaignId } }',
  },
  {
    name: 'GraphQL opportunity campaigns',
    graphql: (s) => `{ opportunity(id: "${s.opportunityId}") { campaigns { id campaignId } } }`,
  },
  {
    name: 'GraphQL opportunities campaigns',
    graphql: () => '{ opportunities(filter: { test: true }, items: 100) { id campaigns { id campaignId } } }',
  },
  {
    name: 'GraphQL rewards campaign',
    graphql: (s) =>
      `{ rewards(chainId: ${CHAIN}, campaignId: "${s.onChainId}") { campaignId campaign { id campaignId } } }`,
    ghost: true,
  },
  {
    name: 'GraphQL user rewards',
    graphql: (s) =>
      `{ user(address: "${s.recipient}") { rewards(chainId: [${CHAIN}]) { rewards { breakdowns { campaignId } } } } }`,
  },
  // Programs (#46): one program holds every subject's opportunity (made in before).
  { name: 'program list', op: 'GET /v4/programs', rest: () => '/v4/programs?items=50' },
  { name: 'program by slug', op: 'GET /v4/programs/{idOrSlug}', rest: () => `/v4/programs/${PROGRAM_SLUG}` },
  {
    name: 'GraphQL programs',
    graphql: () => '{ programs(items: 50) { slug campaignsCount opportunities { id campaigns { id campaignId } } } }',
  },
  {
    name: 'GraphQL program',
    graphql: () => `{ program(idOrSlug: "${PROGRAM_SLUG}") { slug opportunities { id campaigns { id campaignId } } } }`,
  },
  // The #33 counts and totals, filtered by the subject: as absent as a campaign that does not exist.
  {
    name: 'GraphQL campaign counts of the campaign',
    graphql: (s) =>
      `{ campaignCounts(filter: { campaignId: "${s.onChainId}", test: true, showPrivate: true }, by: CHAINS) { key count } }`,
    ghost: true,
  },
  {
    name: 'GraphQL distributed rewards of the campaign',
    graphql: (s) =>
      `{ distributedRewards(filter: { campaignId: "${s.onChainId}", test: true, showPrivate: true }, by: TYPES, grain: "month") { month key usd } }`,
    ghost: true,
  },
  {
    name: 'GraphQL reward total, count and unclaimed of the campaign',
    graphql: (s) =>
      `{ rewardsTotal(chainId: ${CHAIN}, campaignId: "${s.onChainId}") { campaignId root amount } rewardsCount(chainId: ${CHAIN}, campaignId: "${s.onChainId}") { campaignId count } rewardsUnclaimed(chainId: ${CHAIN}, campaignIds: ["${s.onChainId}"]) { campaignId amount } }`,
    ghost: true,
  },
];

/**
 * A read serving counts of campaigns: with the subject private, a caller who may not see it gets
 * exactly the counts it would get if the subject were public, less the subject's own share
 * (`share`: 1 where it counts when public, by its status at the API's clock).
 */
type CountRead = {
  name: string;
  /** The OpenAPI operation of the REST path (none for a GraphQL read). */
  op?: string;
  rest?: (s: Subject) => string;
  /** A GraphQL query instead of a REST path: `counts` reads its `data`. */
  graphql?: (s: Subject) => string;
  /** The counts of the body; an answer other than 200 (an opportunity left with no public campaign) counts nothing. */
  counts: (body: any, s: Subject) => Record<string, number>; // eslint-disable-line @typescript-eslint/no-explicit-any
  share: (s: Subject) => Record<string, number>;
  /** A figure floored at 0: hiding the subject takes its share off, down to 0. */
  nonNegative?: true;
};
const live = (s: Subject) => (s.status === 'live' ? 1 : 0);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

const COUNT_READS: CountRead[] = [
  {
    name: 'live campaigns of the chain',
    op: 'GET /v4/chains',
    rest: () => '/v4/chains',
    counts: (b) => ({
      live: (b as { id: number; liveCampaigns: number }[]).find((c) => c.id === CHAIN)!.liveCampaigns,
    }),
    share: (s) => ({ live: live(s) }),
  },
  {
    name: "creator's dashboard",
    op: 'GET /v4/creators/{creator}/dashboard',
    rest: (s) => `/v4/creators/${s.creator}/dashboard?test=true`,
    counts: (b) => ({
      past: b.pastCampaigns,
      live: b.liveCampaigns,
      future: b.futureCampaigns,
      total: b.totalCampaigns,
    }),
    share: (s) => ({
      past: s.status === 'past' ? 1 : 0,
      live: live(s),
      future: s.status === 'future' ? 1 : 0,
      total: 1,
    }),
  },
  {
    name: 'live campaigns of the protocols',
    op: 'GET /v4/protocols',
    rest: () => '/v4/protocols?items=100&test=true',
    counts: (b) => ({ live: sum((b as { numberOfLiveCampaigns: number }[]).map((p) => p.numberOfLiveCampaigns)) }),
    // Opportunities of a type naming no protocol count nowhere here.
    share: (s) => ({ live: protocolOf(s.opportunityType) ? live(s) : 0 }),
  },
  {
    name: 'live campaigns of its protocol',
    op: 'GET /v4/protocols/{id}',
    // A subject whose type names no protocol reads one it does not count for.
    rest: (s) => `/v4/protocols/${protocolOf(s.opportunityType)?.id ?? 'eigenlayer'}`,
    counts: (b) => ({ live: (b as { numberOfLiveCampaigns: number }).numberOfLiveCampaigns }),
    share: (s) => ({ live: protocolOf(s.opportunityType) ? live(s) : 0 }),
  },
  {
    name: 'live campaigns of the opportunity',
    op: 'GET /v4/opportunities/{id}',
    rest: (s) => `/v4/opportunities/${s.opportunityId}`,
    counts: (b) => ({ live: b.liveCampaigns }),
    share: (s) => ({ live: live(s) }),
  },
  {
    name: 'campaigns of the program',
    op: 'GET /v4/programs/{idOrSlug}',
    rest: () => `/v4/programs/${PROGRAM_SLUG}`,
    counts: (b) => ({ live: b.liveCampaigns, total: b.campaignsCount }),
    share: (s) => ({ live: live(s), total: 1 }),
  },
  {
    name: 'GraphQL campaigns of the program',
    graphql: () => `{ program(idOrSlug: "${PROGRAM_SLUG}") { liveCampaigns campaignsCount } }`,
    counts: (d) => ({ live: d.program.liveCampaigns, total: d.program.campaignsCount }),
    share: (s) => ({ live: live(s), total: 1 }),
  },
  {
    name: "live campaigns of the creator's opportunities",
    op: 'GET /v4/creators/{creator}/opportunities',
    rest: (s) => `/v4/creators/${s.creator}/opportunities?items=100&test=true`,
    counts: (b) => ({
      live: sum((b as { liveCampaignsForCreator: number }[]).map((o) => o.liveCampaignsForCreator)),
    }),
    share: (s) => ({ live: live(s) }),
  },
  // Campaign counts under the list filters (#33): a private campaign counts once, for callers who may see it.
  ...(
    [
      ['GET /v4/campaigns/count', '', 1],
      ['GET /v4/campaigns/count/by-chains', '/by-chains', 2],
      ['GET /v4/campaigns/count/by-types', '/by-types', 2],
      ['GET /v4/campaigns/count/by-protocols', '/by-protocols', 2],
      ['GET /v4/campaigns/count/by-chains', '/by-chains?grain=month', 3],
    ] as const
  ).map(
    ([op, suffix, depth]): CountRead => ({
      name: `campaign count${suffix}`,
      op,
      rest: () => `/v4/campaigns/count${suffix}${suffix.includes('?') ? '&' : '?'}test=true&showPrivate=true`,
      // A bare number, `{ key: n }` or `{ month: { key: n } }`: every count summed.
      counts: (b) => ({
        total:
          depth === 1
            ? b
            : sum(
                Object.values(b as Record<string, unknown>).flatMap((v) =>
                  typeof v === 'number' ? [v] : Object.values(v as Record<string, number>),
                ),
              ),
      }),
      // Campaigns of a type naming no protocol count under `none` (issue 42): every grouping sums to the total.
      share: () => ({ total: 1 }),
    }),
  ),
  // The same counts through GraphQL (#33): every bucket summed.
  ...(['', 'by: CHAINS', 'by: TYPES', 'by: PROTOCOLS', 'by: CHAINS, grain: "month"', 'grain: "month"'] as const).map(
    (args): CountRead => ({
      name: `GraphQL campaignCounts(${args})`,
      graphql: () =>
        `{ campaignCounts(filter: { test: true, showPrivate: true }${args ? `, ${args}` : ''}) { month key count } }`,
      counts: (d) => ({ total: sum((d.campaignCounts as { count: number }[]).map((b) => b.count)) }),
      share: () => ({ total: 1 }),
    }),
  ),
  // USD the live roots distributed (#33), every bucket summed: the subject's own USD (campaigns without a protocol count under `none`).
  ...(['', 'by: CHAINS', 'by: TYPES', 'by: PROTOCOLS', 'by: PROTOCOLS, grain: "month"'] as const).map(
    (args): CountRead => ({
      name: `GraphQL distributedRewards(${args})`,
      graphql: () =>
        `{ distributedRewards(filter: { test: true, showPrivate: true }${args ? `, ${args}` : ''}) { month key usd } }`,
      counts: (d) => ({ usd: sum((d.distributedRewards as { usd: number }[]).map((b) => b.usd)) }),
      share: (s) => ({ usd: s.own.distributedUsd }),
    }),
  ),
  // A token's live total and unclaimed amount leave out what hidden campaigns hold of it. (Its recipient
  // count is not a sum over campaigns, a recipient may have several: the campaign form is read above.)
  {
    name: 'GraphQL rewardsTotal of the reward token',
    graphql: (s) => `{ rewardsTotal(chainId: ${CHAIN}, token: "${s.rewardToken}") { amount } }`,
    counts: (d) => ({ amount: Number(d.rewardsTotal.amount) }),
    share: (s) => ({ amount: s.own.tokenAmount }),
  },
  {
    name: 'GraphQL rewardsUnclaimed of the reward token',
    graphql: (s) => `{ rewardsUnclaimed(chainId: ${CHAIN}, token: "${s.rewardToken}") { amount } }`,
    counts: (d) => ({ unclaimed: Number((d.rewardsUnclaimed as { amount: string }[])[0]!.amount) }),
    share: (s) => ({ unclaimed: s.own.tokenAmount }),
    // The token's visible total minus what was claimed of it, never below 0.
    nonNegative: true,
  },
];

/** Equal up to float rounding (USD sums, token units past 2^53 read as numbers); exact for counts. */
const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** The list every subject's creator keeps, naming all subjects (lists are public: the ids must not be). */
const LIST_NAME = 'privacy-matrix';
/** The program holding every subject's opportunity (#46: its figures count a private campaign for no one). */
const PROGRAM_SLUG = 'privacy-matrix';
/** Stored configuration the matrix asks to attach to each subject (GET /v4/config/hash/{hash}?campaignId=…). */
let configHash = '';

/**
 * Campaign-bearing GET operations of the OpenAPI document that the matrix does not read, with why
 * (each with a test of its own where the reason is a rule of ours).
 */
const EXEMPT: Record<string, string> = {
  ...Object.fromEntries(
    [
      '',
      '/per-month/{year}/{month}',
      '/chains/{chainId}',
      '/chains/{chainId}/per-month/{year}/{month}',
      '/tokens/{chainId}/{tokenAddress}',
      '/tokens/{chainId}/{tokenAddress}/per-month/{year}/{month}',
    ].map((suffix) => [
      `GET /v4/accounting/revenues${suffix}`,
      'back office only (authMatrix.test.ts): counts the fees of every campaign, private ones included, for the one caller who sees them all (accountingRevenues.test.ts)',
    ]),
  ),
  'GET /v4/health':
    'counts LIVE campaigns without a reward price among public campaigns only, the same answer for every caller (test/integration/api/unpriced.test.ts)',
  'GET /v4/webhooks':
    "an owner's own webhooks only; `campaignId` is its filter, accepted only for a campaign the owner could see then (test/integration/api/webhooks.test.ts); deliveries apply the visibility rule per event (test/integration/jobs/deliverWebhooks.test.ts)",
  'GET /v4/webhooks/{id}': 'as GET /v4/webhooks: one of the caller’s own webhooks, another owner’s is a 404',
  'GET /v4/protocols/count':
    'how many protocols GET /v4/protocols lists (read above): both count opportunities over public campaigns only (loadOpportunityFacts), the same answer for every caller (referenceDataCuration.test.ts compares the two)',
};

/**
 * Whether an operation of the document can return campaign data: its path or a parameter names a
 * campaign, or its documented 2xx response contains a property or component named like one
 * (a record, an id, `liveCampaigns`, `numberOfLiveCampaigns`, `totalCampaigns`…).
 */
function campaignBearingOperations(document: OpenApiDocument): string[] {
  const components = ((document['components'] as { schemas?: Record<string, unknown> })?.schemas ?? {}) as Record<
    string,
    unknown
  >;
  const names = (schema: unknown, seen: Set<string>): string[] => {
    if (!schema || typeof schema !== 'object') return [];
    const ref = (schema as { $ref?: string }).$ref;
    if (ref) {
      const name = ref.split('/').pop()!;
      if (seen.has(name)) return [name];
      seen.add(name);
      return [name, ...names(components[name], seen)];
    }
    return Object.entries(schema as Record<string, unknown>).flatMap(([key, value]) =>
      key === 'properties' && value && typeof value === 'object'
        ? Object.entries(value).flatMap(([property, sub]) => [property, ...names(sub, seen)])
        : names(value, seen),
    );
  };
  const out: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const op = item['get'] as { parameters?: { name: string }[]; responses?: Record<string, unknown> } | undefined;
    if (!op) continue;
    const success = Object.entries(op.responses ?? {})
      .filter(([status]) => status.startsWith('2'))
      .map(([, response]) => response);
    const named = [path, ...(op.parameters ?? []).map((p) => p.name), ...names(success, new Set())];
    if (named.some((n) => /campaign/i.test(n))) out.push(`GET ${path}`);
  }
  return out;
}

/**
 * Root fields of the GraphQL schema whose answers can hold a campaign field (a record, an id), or
 * that count or sum campaigns: named for campaigns, or taking an argument that names one (also
 * inside an input object: the campaign filters of a count or total).
 */
function campaignBearingGraphqlFields(): string[] {
  const schema = createGraphqlSchema();
  const reaches = (type: GraphQLNamedType, seen: Set<string>): boolean => {
    if (!(isObjectType(type) || isInputObjectType(type)) || seen.has(type.name)) return false;
    seen.add(type.name);
    return Object.values(type.getFields()).some(
      (f: { name: string; type: GraphQLType }) => /campaign/i.test(f.name) || reaches(getNamedType(f.type), seen),
    );
  };
  return Object.values(schema.getQueryType()!.getFields())
    .filter(
      (f) =>
        /campaign/i.test(f.name) ||
        f.args.some((a) => /campaign/i.test(a.name) || reaches(getNamedType(a.type), new Set())) ||
        reaches(getNamedType(f.type), new Set()),
    )
    .map((f) => f.name);
}

/** Root field names a GraphQL read selects. */
const rootFieldsOf = (query: string) =>
  (parse(query).definitions[0] as OperationDefinitionNode).selectionSet.selections.map((sel) =>
    sel.kind === 'Field' ? sel.name.value : '',
  );

/** An OpenAPI path template as a regular expression over concrete paths (query string excluded). */
const templateRegex = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);

/** Who may see the subject: the back office, its creator and grantees, its recipients only when recipientsCanView. */
const maySee = (s: Subject, caller: Caller) =>
  caller === 'backOffice' ||
  caller === 'creator' ||
  caller === 'grantee' ||
  (caller === 'recipient' && s.recipientsCanView);

describe('privacy matrix: private campaigns × every read of campaign data × every kind of caller', function () {
  let demo: ReferenceDemo;
  let subjects: Subject[];
  const as = (address: string) => ({
    Cookie: `jwt=${signSession({ secret: demo.h.config.jwtSecret, address, tier: 0 }).token}`,
  });
  const headersOf = (s: Subject, caller: Caller): Record<string, string> => {
    switch (caller) {
      case 'anonymous':
        return {};
      case 'recipient':
        return as(s.recipient);
      case 'grantee':
        return as(s.grantee);
      case 'creator':
        return as(s.creator);
      case 'backOffice':
        return { authorization: TEST_BACK_OFFICE_TOKEN };
    }
  };
  /** The response text of a read, lower case, its status and association header (config store). */
  const read = async (r: Read, s: Subject, caller: Caller) => {
    const h = demo.h;
    const res = r.rest
      ? await h.request().get(r.rest(s)).set(headersOf(s, caller))
      : await h
          .request()
          .post('/graphql/v1')
          .set(headersOf(s, caller))
          .set('accept', 'application/json')
          .send({ query: r.graphql!(s) });
    // A problem body's detail and instance echo the caller's own request (the id it asked for): not served data.
    const body = /problem\+json/.test(String(res.headers['content-type']))
      ? { ...res.body, detail: undefined, instance: undefined, requestId: undefined }
      : res.status < 300 && r.pick
        ? r.pick(res.body)
        : res.body;
    return {
      status: res.status,
      text: JSON.stringify(withoutOthersConfiguration(body ?? null, s)).toLowerCase(),
      association: res.headers['x-config-association'] as string | undefined,
    };
  };
  /** The subject as a campaign that does not exist: other ids and transaction, the rest alike. */
  const ghostOf = (s: Subject): Subject => ({
    ...s,
    id: GHOST_ID,
    onChainId: GHOST_ON_CHAIN_ID,
    txHash: `0x${'cd'.repeat(32)}`,
  });
  /**
   * A served body without the own configuration of other campaigns: a public sub-campaign's
   * `params` (its on-chain data), `parentCampaignId` and `rootCampaignId` name its parent even when
   * the parent is private (README "Campaign visibility"); nothing else of another campaign may.
   */
  const withoutOthersConfiguration = (value: unknown, s: Subject): unknown => {
    if (Array.isArray(value)) return value.map((v) => withoutOthersConfiguration(v, s));
    if (!value || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    const isOtherCampaign =
      typeof record['campaignId'] === 'string' &&
      'parentCampaignId' in record &&
      record['id'] !== s.id &&
      String(record['campaignId']).toLowerCase() !== s.onChainId;
    return Object.fromEntries(
      Object.entries(record)
        .filter(([k]) => !(isOtherCampaign && ['params', 'parentCampaignId', 'rootCampaignId'].includes(k)))
        .map(([k, v]) => [k, withoutOthersConfiguration(v, s)]),
    );
  };
  const mentions = (text: string, s: Subject) => text.includes(s.onChainId.toLowerCase()) || text.includes(`"${s.id}"`);

  before(async function () {
    demo = await createReferenceDemo();
    const h = demo.h;
    await h.startJobRunner(); // a privacy change asks the job runner to refresh its opportunity, as under npm start
    // Three private subjects, the demo family included on purpose: its parent (rewards in the live
    // tree, public sub-campaigns naming it), another rewarded campaign, and one sub-campaign (its
    // parent's grantee may read the parent, never this child).
    const { rows } = await h.deps.pg.query<{
      id: string;
      campaign_id: string;
      opportunity_id: string;
      creator: string;
      recipient: string | null;
      role: 'parent' | 'other' | 'child';
      tx_hash: string;
      reward_token: string;
      slug: string | null;
      status: Subject['status'];
      opportunity_type: string;
    }>(
      `WITH family AS (SELECT parent_campaign_id AS parent, min(id) AS child FROM campaigns WHERE parent_campaign_id IS NOT NULL GROUP BY 1 ORDER BY 1 LIMIT 1),
         rewarded AS (SELECT DISTINCT ON (c.id) c.id, b.recipient FROM campaigns_current c
           JOIN reward_breakdowns b ON lower(b.campaign_id) = lower(c.campaign_id) AND b.chain_id = c.distribution_chain_id
           ORDER BY c.id, b.amount DESC, b.recipient),
         picked AS (
           (SELECT f.parent AS id, 'parent' AS role FROM family f)
           UNION ALL (SELECT r.id, 'other' FROM rewarded r JOIN campaigns_current c USING (id)
             WHERE c.opportunity_id IS NOT NULL AND c.parent_campaign_id IS NULL AND r.id NOT IN (SELECT parent FROM family)
               -- Its own recipient: campaign ids (and so which campaign comes first) follow the demo's start times.
               AND r.recipient IS DISTINCT FROM (SELECT pr.recipient FROM rewarded pr WHERE pr.id = (SELECT parent FROM family))
             ORDER BY r.id LIMIT 1)
           UNION ALL (SELECT f.child, 'child' FROM family f))
       SELECT c.id, lower(c.campaign_id) AS campaign_id, c.opportunity_id, lower(c.creator) AS creator, r.recipient, p.role,
         lower(c.tx_hash) AS tx_hash, lower(c.reward_token) AS reward_token,
         (SELECT o.type FROM opportunities o WHERE o.id = c.opportunity_id) AS opportunity_type,
         (SELECT k.id FROM creators k WHERE lower(c.creator) = ANY(k.addresses) ORDER BY k.id LIMIT 1) AS slug,
         CASE WHEN c.end_timestamp <= $1 THEN 'past' WHEN c.start_timestamp > $1 THEN 'future' ELSE 'live' END AS status
       FROM picked p JOIN campaigns_current c ON c.id = p.id LEFT JOIN rewarded r ON r.id = p.id`,
      [Math.floor(Date.now() / 1000)],
    );
    const byRole = (role: string) => {
      const row = rows.find((r) => r.role === role);
      if (!row) throw new Error(`the demo has no ${role} campaign for the privacy matrix`);
      return row;
    };
    const [parent, other, child] = [byRole('parent'), byRole('other'), byRole('child')];
    expect(parent.recipient, 'the demo family parent has rewards').to.be.a('string');
    expect(other.recipient, 'a second rewarded campaign').to.be.a('string');
    const subject = (
      r: typeof parent,
      name: string,
      recipientsCanView: boolean,
      grantee: string,
      recipient = r.recipient!,
    ): Subject => ({
      name,
      recipientsCanView,
      rewarded: r.recipient !== null,
      id: r.id,
      onChainId: r.campaign_id,
      opportunityId: r.opportunity_id,
      creator: r.creator,
      recipient,
      grantee,
      creatorSlug: r.slug ?? undefined,
      opportunityType: r.opportunity_type,
      txHash: r.tx_hash,
      rewardToken: r.reward_token,
      status: r.status,
      own: { distributedUsd: 0, tokenAmount: 0 },
    });
    subjects = [
      subject(parent, 'private family parent, recipientsCanView false', false, `0x${'1'.repeat(40)}`),
      subject(other, 'private, recipientsCanView true', true, `0x${'2'.repeat(40)}`),
      // No rewards: its "recipient" is the parent's grantee, who reads the parent (and its
      // childCampaignIds) but has no claim on this child and may not see it.
      {
        ...subject(
          child,
          'private sub-campaign, recipientsCanView false',
          false,
          `0x${'3'.repeat(40)}`,
          `0x${'1'.repeat(40)}`,
        ),
        parentId: parent.id,
      },
    ];
    for (const s of subjects) {
      await h
        .request()
        .patch(`/v4/campaigns/${s.id}/privacy`)
        .set(as(s.creator))
        .send({ isPrivate: true, recipientsCanView: s.recipientsCanView })
        .expect(200);
      await h
        .request()
        .post(`/v4/campaigns/${s.id}/access/grant`)
        .set(as(s.creator))
        .send({ userAddress: s.grantee })
        .expect(200);
    }
    // A daily close for every reward token before the first root, so distributed rewards have a USD figure (as rewardTotals.test.ts).
    await priceRewardTokensBeforeFirstRoot(h, CHAIN);
    // Each subject's own figures, read by the one caller who sees every campaign.
    for (const s of subjects) {
      const backOffice = { authorization: TEST_BACK_OFFICE_TOKEN };
      const usd = await h
        .request()
        .get(`/v4/rewards/total/distributed?campaignId=${s.onChainId}&test=true&showPrivate=true`)
        .set(backOffice)
        .expect(200);
      const units = await h
        .request()
        .get(`/v4/rewards/total?chainId=${CHAIN}&campaignId=${s.onChainId}`)
        .set(backOffice)
        .expect(200);
      s.own = { distributedUsd: usd.body, tokenAmount: Number(units.body.amount) };
    }
    expect(subjects.map((x) => x.own.distributedUsd > 0 && x.own.tokenAmount > 0)).to.include(true);
    // No subject's recipient is another's (a recipient of both would see the second legitimately).
    expect(new Set(subjects.map((x) => x.recipient)).size).to.equal(subjects.length);
    // Each creator keeps a public campaign list naming every subject (lists are anyone's to read).
    for (const creator of new Set(subjects.map((x) => x.creator)))
      await h
        .request()
        .post('/v4/campaign-lists')
        .set(as(creator))
        .send({ name: LIST_NAME, campaignIds: subjects.map((x) => x.id) })
        .expect(200);
    await h
      .request()
      .post('/v4/programs')
      .set({ authorization: TEST_BACK_OFFICE_TOKEN })
      .send({
        slug: PROGRAM_SLUG,
        name: 'Privacy matrix',
        opportunities: [...new Set(subjects.map((x) => x.opportunityId))],
      })
      .expect(201);
    const stored = await h
      .request()
      .post('/v4/config/store')
      .send({ distributionMethodParameters: { distributionMethod: 'MATRIX', note: 'privacy matrix' } })
      .expect(200);
    configHash = stored.body.hash;
    const ghost = await h.deps.pg.query(
      'SELECT 1 FROM campaigns WHERE id = $1 OR lower(campaign_id) = $2 OR lower(tx_hash) = $3',
      [GHOST_ID, GHOST_ON_CHAIN_ID, ghostOf(subjects[0]!).txHash],
    );
    expect(ghost.rows, 'the ghost campaign does not exist').to.deep.equal([]);
  });
  after(async () => demo?.close());

  it('reads every campaign-bearing GET operation of the OpenAPI document and every such GraphQL root field', function () {
    const h = demo.h;
    const { document, undocumented } = buildOpenApi({
      router: createRoutes({ config: h.config, logger: h.deps.logger, pg: h.apiPg, es: h.deps.es, rpc: h.deps.rpc }),
    });
    // The document is read off the router stacks; an operation without one would escape the classification.
    expect(undocumented, 'routes of the stack missing from the document').to.deep.equal([]);
    const bearing = campaignBearingOperations(document);
    const read = new Set([...READS, ...COUNT_READS].map((r) => r.op).filter(Boolean));
    const readOps = [...READS, ...COUNT_READS].filter((r) => r.op && r.rest);
    const subject = subjects[0]!;
    expect(
      readOps.filter((r) => !templateRegex(r.op!.slice(4)).test(r.rest!(subject).split('?')[0]!)).map((r) => r.name),
      'reads whose path is not an instance of their operation',
    ).to.deep.equal([]);
    expect(
      [...read].filter((op) => !document.paths[op!.slice(4)]?.['get']),
      'reads naming no GET operation of the document',
    ).to.deep.equal([]);
    expect(
      bearing.filter((op) => !read.has(op) && !(op in EXEMPT)),
      'campaign-bearing operations the matrix does not read (add a read, or an exemption saying why)',
    ).to.deep.equal([]);
    const fields = campaignBearingGraphqlFields();
    const readFields = new Set(
      [...READS, ...COUNT_READS].filter((r) => r.graphql).flatMap((r) => rootFieldsOf(r.graphql!(subject))),
    );
    expect(
      fields.filter((f) => !readFields.has(f)),
      'campaign-bearing GraphQL root fields the matrix does not read',
    ).to.deep.equal([]);
    const requests = READS.length * subjects.length * CALLERS.length;
    console.log(
      `      privacy matrix: ${bearing.length} campaign-bearing operations of ${Object.keys(document.paths).length} paths and ${fields.length} GraphQL root fields; ${READS.length} reads × ${subjects.length} private campaigns × ${CALLERS.length} callers = ${requests} requests, ${READS.filter((r) => r.ghost).length} reads also compared with a campaign that does not exist, ${COUNT_READS.length} counts × ${subjects.length} × ${CALLERS.length} callers × private/public`,
    );
  });

  for (const r of READS) {
    it(`${r.name}: never serves a private campaign's ids to a caller who may not see it, never 5xx`, async function () {
      const leaks: string[] = [];
      for (const s of subjects) {
        for (const caller of CALLERS) {
          const res = await read(r, s, caller);
          if (res.status >= 500) leaks.push(`${s.name} as ${caller}: ${res.status}`);
          if (maySee(s, caller)) continue;
          if (mentions(res.text, s))
            leaks.push(`${s.name} as ${caller}: ${res.status} mentions ${s.id} / ${s.onChainId}`);
          // Hidden and absent alike: the same status, body and header as for a campaign that does not exist.
          if (r.ghost) {
            const ghost = await read(r, ghostOf(s), caller);
            const own = {
              ...res,
              text: res.text.replaceAll(s.onChainId, GHOST_ON_CHAIN_ID).replaceAll(s.id, GHOST_ID),
            };
            if (JSON.stringify(own) !== JSON.stringify(ghost))
              leaks.push(
                `${s.name} as ${caller}: ${res.status} ${res.association ?? ''} differs from a campaign that does not exist: ${ghost.status} ${ghost.association ?? ''}`,
              );
          }
        }
      }
      expect(leaks).to.deep.equal([]);
    });
  }

  it('counts a private campaign only for callers who may see it: chain, dashboard, protocols, opportunities, GraphQL counts and totals', async function () {
    const wrong: string[] = [];
    const countsOf = async (r: CountRead, s: Subject, caller: Caller) => {
      const res = r.rest
        ? await demo.h.request().get(r.rest(s)).set(headersOf(s, caller))
        : await demo.h
            .request()
            .post('/graphql/v1')
            .set(headersOf(s, caller))
            .set('accept', 'application/json')
            .send({ query: r.graphql!(s) });
      if (res.status >= 500 || res.body?.errors)
        wrong.push(`${r.name} as ${caller}: ${res.status} ${JSON.stringify(res.body?.errors ?? '')}`);
      return res.status === 200 && !res.body?.errors
        ? r.counts(r.rest ? res.body : res.body.data, s)
        : Object.fromEntries(Object.keys(r.share(s)).map((k) => [k, 0]));
    };
    const setPrivate = (s: Subject, isPrivate: boolean) =>
      demo.h
        .request()
        .patch(`/v4/campaigns/${s.id}/privacy`)
        .set(as(s.creator))
        .send({ isPrivate, recipientsCanView: s.recipientsCanView })
        .expect(200);
    let shares = 0;
    for (const s of subjects) {
      // Every read while the subject is private, then every read once it is public: one change of
      // privacy each way per subject (each publishes its documents), the other subjects private throughout.
      const hidden = new Map<CountRead, Record<string, Record<string, number>>>();
      for (const r of COUNT_READS) {
        const byCaller: Record<string, Record<string, number>> = {};
        for (const caller of CALLERS) byCaller[caller] = await countsOf(r, s, caller);
        hidden.set(r, byCaller);
      }
      await setPrivate(s, false);
      try {
        for (const r of COUNT_READS) {
          for (const caller of CALLERS.filter((c) => !maySee(s, c))) {
            const shown = await countsOf(r, s, caller);
            const before = hidden.get(r)![caller]!;
            for (const [key, share] of Object.entries(r.share(s))) {
              shares += share;
              const expected = r.nonNegative ? Math.max(0, shown[key]! - share) : shown[key]! - share;
              if (!near(before[key]!, expected))
                wrong.push(
                  `${r.name} as ${caller} (${s.name}, ${s.status}): ${key} ${before[key]} while private, ${shown[key]} public (expected ${expected})`,
                );
            }
          }
        }
      } finally {
        await setPrivate(s, true);
      }
    }
    expect(wrong).to.deep.equal([]);
    expect(shares, 'some private campaign counts somewhere when public (the check can fail)').to.be.greaterThan(0);
  });

  it('serves the private campaign itself to those who may see it (showPrivate=true, metrics, rewards)', async function () {
    for (const s of subjects) {
      for (const caller of CALLERS.filter((c) => maySee(s, c))) {
        for (const path of [
          `/v4/campaigns/${s.id}?showPrivate=true`,
          `/v4/campaigns/${s.id}/metrics`,
          `/v4/campaigns/${s.id}/linked`,
        ]) {
          const res = await demo.h.request().get(path).set(headersOf(s, caller));
          expect(res.status, `${path} as ${caller} (${s.name})`).to.equal(200);
        }
        const rewards = await demo.h
          .request()
          .get(`/v4/rewards?chainId=31337&campaignId=${s.onChainId}`)
          .set(headersOf(s, caller))
          .expect(200);
        if (s.rewarded) expect(rewards.body.length, `rewards as ${caller} (${s.name})`).to.be.greaterThan(0);
      }
      for (const caller of CALLERS.filter((c) => !maySee(s, c))) {
        await demo.h.request().get(`/v4/campaigns/${s.id}?showPrivate=true`).set(headersOf(s, caller)).expect(404);
        await demo.h.request().get(`/v4/campaigns/${s.id}/metrics`).set(headersOf(s, caller)).expect(404);
      }
    }
  });

  it('applies a privacy change to every read in the same request cycle: public again, then private again', async function () {
    const s = subjects[0]!;
    await demo.h
      .request()
      .patch(`/v4/campaigns/${s.id}/privacy`)
      .set(as(s.creator))
      .send({ isPrivate: false })
      .expect(200);
    expect(
      mentions((await read(READS.find((r) => r.name === 'opportunity with campaigns')!, s, 'anonymous')).text, s),
    ).to.equal(true);
    await demo.h.request().get(`/v4/campaigns/${s.id}/metrics`).expect(200);
    await demo.h
      .request()
      .patch(`/v4/campaigns/${s.id}/privacy`)
      .set(as(s.creator))
      .send({ isPrivate: true })
      .expect(200);
    expect(
      mentions((await read(READS.find((r) => r.name === 'opportunity with campaigns')!, s, 'anonymous')).text, s),
    ).to.equal(false);
    await demo.h.request().get(`/v4/campaigns/${s.id}/metrics`).expect(404);
  });

  it('keeps a private campaign out of campaign searches while its document still says public (a projection not caught up yet, L6)', async function () {
    const h = demo.h;
    const leaks: string[] = [];
    for (const s of subjects) {
      // What a projection started before the PATCH writes after it: the document as it was, public.
      await h.deps.es.update({
        index: indexNames(h.config.esIndexPrefix, 'campaigns').write,
        id: s.id,
        doc: { isPrivate: false },
        refresh: true,
      });
      for (const path of [
        `/v4/creators/${s.creator}/campaigns`,
        `/v4/opportunities/${s.opportunityId}/campaigns`,
        '/v4/campaigns?items=100&test=true&showPrivate=true',
        `/v4/campaigns/${s.id}?showPrivate=true`,
      ]) {
        const res = await h.request().get(path);
        const body = res.status === 200 ? res.body : null;
        if (mentions(JSON.stringify(withoutOthersConfiguration(body, s)).toLowerCase(), s))
          leaks.push(`${path} (${s.name}): ${res.status}`);
      }
      await h.deps.es.update({
        index: indexNames(h.config.esIndexPrefix, 'campaigns').write,
        id: s.id,
        doc: { isPrivate: true },
        refresh: true,
      });
    }
    expect(leaks).to.deep.equal([]);
  });

  it('builds the opportunity documents (campaign ids, APR/TVL/rewards records and breakdowns) from public campaigns only, as soon as the privacy change answered (no job run since)', async function () {
    const leaks: string[] = [];
    for (const s of subjects) {
      for (const path of [
        `/v4/opportunities/${s.opportunityId}`,
        '/v4/opportunities?items=100&test=true',
        `/v4/opportunities/${s.opportunityId}/campaigns`,
      ]) {
        const res = await demo.h.request().get(path).expect(200);
        if (mentions(JSON.stringify(withoutOthersConfiguration(res.body, s)).toLowerCase(), s))
          leaks.push(`${path} mentions ${s.name}`);
      }
      const gql = await demo.h
        .request()
        .post('/graphql/v1')
        .set('accept', 'application/json')
        .send({ query: `{ opportunity(id: "${s.opportunityId}") { id campaigns { id } } }` })
        .expect(200);
      if (mentions(JSON.stringify(withoutOthersConfiguration(gql.body, s)).toLowerCase(), s))
        leaks.push(`GraphQL opportunity mentions ${s.name}`);
    }
    expect(leaks).to.deep.equal([]);
  });
});
