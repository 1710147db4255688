import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { describe } from '../../openapi/describe.js';
import { any, arr, int, nullable, obj, str } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import { findCreationHashHandler, transactionCampaignIdsHandler, transactionCampaignsHandler } from './handlers.js';
import { creationHashQuery, transactionQuery } from './schema.js';

const extendedCampaignSchema = obj({
  campaignId: str,
  mainParameter: nullable(str),
  amount: str,
  rewardToken: str,
  startTimestamp: int,
  endTimestamp: int,
  chainId: int,
  computeChainId: int,
  campaignType: str,
  campaignSubType: int,
  creator: str,
  index: int,
  campaignParameters: { type: 'object' },
  id: str,
});

const VISIBILITY =
  'A private campaign is served only to a caller who may see it (the back office, its creator and grantees, its recipients when allowed), without `showPrivate`: for anyone else it is absent.';
const ON_CHAIN_ID = '0x5e6f1b6d1c8e3c1c0c4a1f4b6f0a3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b';
const TX = '0x2b9c3b7f6d1f0c4e5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f';

/**
 * GET /v4/transactions/…: the creation transaction of a campaign, and the campaigns a transaction
 * created, from the indexed NewCampaign events (campaigns.tx_hash, block_number).
 */
export function transactionsRouter(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/transactions' });
  router.get(
    ['/find-creation-hash', '/find-creation-hash/'],
    describe({
      summary: 'The creation transaction of a campaign',
      description: `The transaction that created the campaign \`campaignId\` (its on-chain id) on its distribution chain \`chainId\`: \`hash\`, \`blockNumber\` and \`explorerUrl\` (the chain's first block explorer, null without one), from the NewCampaign event we indexed. All three are null when we indexed no such campaign. ${VISIBILITY} A chain we do not index is a 400 naming \`chainId\`.`,
      response: obj({ hash: nullable(str), blockNumber: nullable(int), explorerUrl: nullable(str) }),
      example: { hash: TX, blockNumber: 21_004_512, explorerUrl: `https://etherscan.io/tx/${TX}` },
    }),
    validate({ query: creationHashQuery }),
    findCreationHashHandler(deps),
  );
  router.get(
    ['/campaigns', '/campaigns/'],
    describe({
      summary: 'The campaigns a transaction created',
      description: `The campaigns the transaction \`hash\` created on \`chainId\` (several when one call created several), in the order of their NewCampaign events: \`campaignIds\` (on-chain ids), \`configs\` (the stored configurations they name, GET /v4/config/hash/{hash}) and \`extendedCampaigns\` (each campaign as it stands now, overrides applied; beyond the hosted shape, \`id\` is our internal id). Empty lists for a transaction that created none we indexed. ${VISIBILITY} A chain we do not index is a 400 naming \`chainId\`.`,
      response: obj({ campaignIds: arr(str), configs: arr(any), extendedCampaigns: arr(extendedCampaignSchema) }),
      example: {
        campaignIds: [ON_CHAIN_ID],
        configs: [],
        extendedCampaigns: [
          {
            campaignId: ON_CHAIN_ID,
            mainParameter: '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8',
            amount: '7000000000000000000000',
            rewardToken: '0x1f9840a85d5af5bf1d1762f925bdaddc4201f984',
            startTimestamp: 1_764_000_000,
            endTimestamp: 1_764_604_800,
            chainId: 1,
            computeChainId: 1,
            campaignType: 'CLAMM',
            campaignSubType: 0,
            creator: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
            index: 0,
            campaignParameters: { poolAddress: '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8' },
            id: '7120318201922340012',
          },
        ],
      },
    }),
    validate({ query: transactionQuery }),
    transactionCampaignsHandler(deps),
  );
  router.get(
    ['/campaign-ids', '/campaign-ids/'],
    describe({
      summary: 'On-chain ids of the campaigns a transaction created',
      description: `The on-chain ids of the campaigns the transaction \`hash\` created on \`chainId\`, in event order; \`[]\` for none. ${VISIBILITY}`,
      response: arr(str),
      example: [ON_CHAIN_ID],
    }),
    validate({ query: transactionQuery }),
    transactionCampaignIdsHandler(deps),
  );
  return router;
}
