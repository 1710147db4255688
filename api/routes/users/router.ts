import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { RewardTreeUnavailableError } from '../../errors.js';
import { validate } from '../../validate.js';
import { userBreakdownsHandler } from './breakdowns.js';
import { userRewardsHandler } from './handlers.js';
import { createProofSource } from '../../reads/rewardProofs.js';
import {
  acceptTermsHandler,
  userOperatorHandler,
  userProfileHandler,
  userRecipientHandler,
  userTermsHandler,
} from './onchainHandlers.js';
import { requireSession } from '../../middleware/auth.js';
import {
  chainQuery,
  noQuery,
  operatorParams,
  operatorQuery,
  recipientParams,
  termsBody,
  userBreakdownsQuery,
  userParams,
  userRewardsQuery,
  userSummaryQuery,
} from '../../reads/users/schema.js';
import { userSummaryHandler } from './summary.js';
import { describe } from '../../openapi/describe.js';
import { chainSchema, opportunitySchema } from '../../openapi/records.js';
import { arr, bool, decimal, int, nullable, num, obj, str } from '../../openapi/schemaHelpers.js';

const userRewardSchema = obj({
  root: str,
  recipient: str,
  proofs: arr(str),
  token: obj({ address: str, chainId: int, symbol: str, decimals: int }),
  amount: decimal,
  claimed: decimal,
  pending: decimal,
  breakdowns: arr(
    obj(
      {
        reason: str,
        amount: decimal,
        claimed: decimal,
        pending: decimal,
        campaignId: str,
        campaignStatus: { enum: ['LIVE', 'PAST', 'SOON'] },
      },
      ['campaignStatus'],
    ),
  ),
});
const userRewardsSchema = arr(obj({ chain: nullable(chainSchema), rewards: arr(userRewardSchema) }));
const userBreakdownsSchema = arr(
  obj({
    chain: nullable(chainSchema),
    distributor: str,
    rewards: arr(
      obj({
        root: str,
        distributionChainId: int,
        recipient: str,
        proofs: arr(str),
        token: obj({ address: str, chainId: int, symbol: str, decimals: int, type: str, isTest: bool }),
        amount: decimal,
        claimed: decimal,
        pending: decimal,
        breakdowns: arr(
          obj({
            opportunityId: nullable(str),
            opportunity: nullable(opportunitySchema),
            amount: decimal,
            claimed: decimal,
            pending: decimal,
          }),
        ),
      }),
    ),
  }),
);
/**
 * The 503 of the reward reads while a requested chain's live root has no stored tree (issue #42):
 * rewards unknown, never an empty list that reads as "nothing earned".
 */
const TREE_UNAVAILABLE = {
  503: {
    description:
      "A requested chain's live root has no stored reward tree yet (not fetched, not published, refused as malformed or not hashing to the root): its rewards are unknown. Problem `REWARD_TREE_UNAVAILABLE` (type `/problems/reward-tree-unavailable`) naming `chainId`, `root`, `treeStatus` and `retryAfter`, with `Retry-After` (seconds). Also 503 `SERVICE_UNAVAILABLE` when a backing service is down.",
    problem: () => new RewardTreeUnavailableError(31337, `0x${'ab'.repeat(32)}`, 'unavailable'),
  },
};
const UNAVAILABLE_NOTE =
  " While a requested chain's live root has no stored reward tree (not fetched yet, or refused) the answer is a 503 problem `REWARD_TREE_UNAVAILABLE` with `Retry-After`, never an empty list: an empty list for a chain means the wallet has nothing in the chain's stored live tree (or the chain has no root yet).";

const termsAcceptanceSchema = obj({ address: str, chainId: int, messageHash: str, acceptedAt: str, onChain: bool });
const profileSchema = obj({
  address: str,
  tags: arr(str),
  creatorId: nullable(str),
  tier: int,
  associated: arr(str),
  blacklistedChainIds: arr(int),
});

/**
 * /v4/users: public reads of a wallet's rewards, profile and on-chain claim settings
 * (docs/api-behaviour.md#user-rewards).
 */
export function usersRouter(deps: ApiDeps): Router {
  const router = new Router();
  const proofs = createProofSource({ db: deps.pg });
  const both = (path: string) => [path, `${path}/`];
  router.get(
    both('/users/:address/rewards'),
    describe({
      summary: 'Rewards of a wallet per chain in the live root, with proofs',
      description:
        "The wallet's rewards per chain in each chain's live root: amount, claimed and pending (wei strings), with the Merkle proof to claim and breakdowns per campaign." +
        UNAVAILABLE_NOTE,
      response: userRewardsSchema,
      responses: TREE_UNAVAILABLE,
    }),
    validate({ params: userParams, query: userRewardsQuery }),
    userRewardsHandler(deps, proofs),
  );
  router.get(
    both('/users/:address/rewards/breakdowns'),
    describe({
      summary: 'Rewards of a wallet per chain, breakdowns grouped by opportunity',
      description: `The wallet's rewards per chain, with breakdowns grouped by opportunity.${UNAVAILABLE_NOTE}`,
      response: userBreakdownsSchema,
      responses: TREE_UNAVAILABLE,
    }),
    validate({ params: userParams, query: userBreakdownsQuery }),
    userBreakdownsHandler(deps, proofs),
  );
  router.get(
    both('/users/:address/rewards/summary'),
    describe({
      summary: 'Earned, claimed and claimable of a wallet per chain and token, without proofs',
      description:
        "Per chain (`chainId`, default every chain) and token: what the wallet earned in the chain's live root, claimed on chain and may still claim, in token units (strings) and in USD at the current price (null without one)." +
        UNAVAILABLE_NOTE,
      responses: TREE_UNAVAILABLE,
      response: arr(
        obj({
          chainId: int,
          root: nullable(str),
          tokens: arr(
            obj({
              address: str,
              symbol: nullable(str),
              decimals: nullable(int),
              price: nullable(num),
              earned: decimal,
              claimed: decimal,
              claimable: decimal,
              earnedUsd: nullable(num),
              claimedUsd: nullable(num),
              claimableUsd: nullable(num),
            }),
          ),
        }),
      ),
    }),
    validate({ params: userParams, query: userSummaryQuery }),
    userSummaryHandler(deps),
  );
  router.get(
    both('/users/:address/terms'),
    describe({
      summary: 'Whether the wallet accepted the terms (on chain, or recorded for the current message)',
      description:
        'Whether the wallet accepted the terms on `chainId`: on chain, or recorded by POST on this path for the current terms message.',
      response: bool,
    }),
    validate({ params: userParams, query: chainQuery }),
    userTermsHandler(deps),
  );
  router.post(
    both('/users/:address/terms'),
    describe({
      summary: 'Record that the wallet (its own session) accepts the current terms of a chain',
      description:
        "Records that the wallet accepts the current terms of a chain. Only the wallet's own session may do so (403 otherwise).",
      response: termsAcceptanceSchema,
      errors: [403],
    }),
    requireSession,
    validate({ params: userParams, body: termsBody }),
    acceptTermsHandler(deps),
  );
  router.get(
    both('/users/:address/recipient/:token'),
    describe({
      summary: 'Claim recipient set by the wallet for a token',
      description: 'The address the wallet set to receive its claims of `token` on `chainId`, or null.',
      response: obj({ recipient: str }),
    }),
    validate({ params: recipientParams, query: chainQuery }),
    userRecipientHandler(deps),
  );
  router.get(
    both('/users/:address/operator/:operatorAddress'),
    describe({
      summary:
        'Whether an address may claim for the wallet, as the Distributor decides (the wallet itself, operators[user][operator], operators[user][0], mainOperators[operator][token or 0], governor or guardian), and by which rules',
      description:
        'Whether `operatorAddress` may claim for the wallet as the Distributor contract decides, and by which rule.',
      response: obj({ isOperator: bool, allowedBy: arr(str) }),
    }),
    validate({ params: operatorParams, query: operatorQuery }),
    userOperatorHandler(deps),
  );
  router.get(
    both('/users/:address'),
    describe({
      summary: 'Profile of a wallet',
      description:
        "The wallet's tags, its creator id (null when it created no campaign), its tier (0 when unknown) and `blacklistedChainIds`, the chains the back office blacklisted it on (GET /v4/blacklists; a flag for readers: it changes no reward this service serves).",
      response: profileSchema,
    }),
    validate({ params: userParams, query: noQuery }),
    userProfileHandler(deps),
  );
  return router;
}
