import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { fields, validate } from '../../validate.js';
import { userBreakdownsHandler, userBreakdownsQuery } from './breakdowns.js';
import { userRewardsHandler } from './handlers.js';
import { createProofCache } from './proofs.js';
import { acceptTermsHandler, userOperatorHandler, userProfileHandler, userRecipientHandler, userTermsHandler } from './onchainHandlers.js';
import { requireSession } from '../../middleware/auth.js';
import { operatorParams, recipientParams, userParams, userRewardsQuery } from './schema.js';

const chainQuery = { type: 'object', additionalProperties: false, properties: { chainId: fields.chainId } } as const;
const termsBody = { type: 'object', additionalProperties: false, required: ['chainId'], properties: { chainId: fields.chainId } } as const;
const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

/** /v4/users: public reads of a wallet's rewards, profile and on-chain claim settings (api-facts §3.1). */
export function usersRouter(deps: ApiDeps): Router {
  const router = new Router();
  const proofs = createProofCache({ db: deps.pg });
  const both = (path: string) => [path, `${path}/`];
  router.get(both('/users/:address/rewards'), validate({ params: userParams, query: userRewardsQuery }), userRewardsHandler(deps, proofs));
  router.get(both('/users/:address/rewards/breakdowns'), validate({ params: userParams, query: userBreakdownsQuery }), userBreakdownsHandler(deps, proofs));
  router.get(both('/users/:address/terms'), validate({ params: userParams, query: chainQuery }), userTermsHandler(deps));
  router.post(both('/users/:address/terms'), requireSession, validate({ params: userParams, body: termsBody }), acceptTermsHandler(deps));
  router.get(both('/users/:address/recipient/:token'), validate({ params: recipientParams, query: chainQuery }), userRecipientHandler(deps));
  router.get(both('/users/:address/operator/:operatorAddress'), validate({ params: operatorParams, query: chainQuery }), userOperatorHandler(deps));
  router.get(both('/users/:address'), validate({ params: userParams, query: noQuery }), userProfileHandler(deps));
  return router;
}
