import type Router from '@koa/router';
import type { ApiDeps } from '../../../deps.js';
import { validate } from '../../../validate.js';
import { generatePayloadHandler } from './handlers.js';
import { parseCampaignsParams } from './parseCampaignsParams.js';
import { generatePayloadBody } from './schema.js';
import { describe } from '../../../openapi/describe.js';
import { generatePayloadSchema } from '../../../reads/campaigns/responses.js';

/** Mounts POST /campaigns/generate-payload on the campaigns router (before the `/:id` routes). */
export function mountGeneratePayload(router: Router, deps: ApiDeps): void {
  router.post(
    ['/campaigns/generate-payload', '/campaigns/generate-payload/'],
    describe({
      summary: 'Build the createCampaigns transaction (simulated on chain)',
      description:
        'Builds the `createCampaigns` call creating every campaign of `campaignsParams` on `distributionChainId`: the target contract, calldata, the id each campaign will get on chain, and the result of simulating the call (so a missing allowance or a wrong amount shows before signing). Nothing is sent; the caller signs and sends the transaction. Field errors name the exact campaign field, e.g. `campaignsParams.ERC20.0.targetToken`.',
      bodyExamples: {
        erc20: {
          summary: 'One ERC20 holding campaign of 1000 tokens over 7 days on chain 1',
          value: {
            creatorAddress: '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063',
            rewardToken: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
            distributionChainId: 1,
            startTimestamp: 1767225600,
            endTimestamp: 1767830400,
            campaignsParams: {
              ERC20: [{ amount: '1000000000000000000000', targetToken: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619' }],
            },
          },
        },
      },
      response: generatePayloadSchema,
    }),
    parseCampaignsParams,
    validate({ body: generatePayloadBody }),
    generatePayloadHandler(deps),
  );
}
