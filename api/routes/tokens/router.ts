import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { validate } from '../../validate.js';
import type { Context, Next } from 'koa';
import { getTokenHandler, listTokensHandler } from './handlers.js';
import {
  allowanceParams,
  balancesQuery,
  listTokensQuery,
  MAX_BALANCE_TOKENS,
  rewardChainParams,
  rewardChainQuery,
  rewardTokensQuery,
  tokenIdParams,
} from '../../reads/tokens/schema.js';
import { describe } from '../../openapi/describe.js';
import { tokenSchema } from '../../openapi/records.js';
import { arr, decimal, int, obj, str, stringMap } from '../../openapi/schemaHelpers.js';
import { allowanceHandler } from './allowance.js';
import { balancesHandler } from './balances.js';
import { rewardTokensHandler, rewardTokensOfChainHandler } from './rewardHandlers.js';

const rewardTokenSchema = { allOf: [tokenSchema, obj({ minimumAmountPerHour: decimal })] };
const balanceSchema = { allOf: [tokenSchema, obj({ balance: decimal, blockNumber: int })] };

/** The hosted service's `additionalTokenAddresses[]` is the same list as `additionalTokenAddresses`. */
async function bracketedListKey(ctx: Context, next: Next): Promise<void> {
  const key = 'additionalTokenAddresses[]';
  if (key in ctx.query) {
    const { [key]: bracketed, additionalTokenAddresses, ...rest } = ctx.query;
    ctx.query = {
      ...rest,
      additionalTokenAddresses: ([] as string[]).concat(additionalTokenAddresses ?? [], bracketed ?? []),
    };
  }
  await next();
}

/**
 * /v4/tokens routes: list/search (`/tokens`, `/tokens/`), the reward tokens of each chain, on-chain
 * balances and allowances, and one token by id (registered last, so the fixed paths win). Tables
 * tokens, token_prices, reward_token_min_amounts.
 */
export function tokensRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.get(
    ['/tokens', '/tokens/'],
    describe({
      summary: 'Search tokens, or resolve several ids',
      description:
        'Tokens matching the filters, or the tokens of several `id`s at once. An address we do not know, given as `search` with `chainId`, is read from chain and returned with a temporary id `tmp-{chainId}-{address}`.',
      response: arr(tokenSchema),
    }),
    validate({ query: listTokensQuery }),
    listTokensHandler(deps),
  );
  router.get(
    ['/tokens/reward', '/tokens/reward/'],
    describe({
      summary: 'Reward tokens of every chain',
      description:
        "A map chain id → the tokens the chain's DistributionCreator accepts as campaign rewards (its whitelist, as indexed from RewardTokenMinimumAmountUpdated logs), each a Token with `minimumAmountPerHour`, the least a campaign must distribute per hour in base units. Chains without reward tokens are absent.",
      response: stringMap(arr(rewardTokenSchema)),
    }),
    validate({ query: rewardTokensQuery }),
    rewardTokensHandler(deps),
  );
  router.get(
    ['/tokens/reward/:chainId', '/tokens/reward/:chainId/'],
    describe({
      summary: 'Reward tokens of a chain',
      description:
        "The tokens the chain's DistributionCreator accepts as campaign rewards, each a Token with `minimumAmountPerHour` (base units per hour); an empty list for a chain without any.",
      response: arr(rewardTokenSchema),
    }),
    validate({ params: rewardChainParams, query: rewardChainQuery }),
    rewardTokensOfChainHandler(deps),
  );
  router.get(
    ['/tokens/balances', '/tokens/balances/'],
    describe({
      summary: 'On-chain token balances of an address',
      description: `\`userAddress\`'s balances on \`chainId\` of \`tokenAddress\` (or, without it, of the chain's reward tokens, \`verified\` filtering them) and of \`additionalTokenAddresses\`, at most ${MAX_BALANCE_TOKENS} tokens: each a Token with \`balance\` (base units) and the \`blockNumber\` all were read at, one gas-limited \`balanceOf\` call per token (addresses not stored only when they hold contract code). Addresses that are not ERC20 tokens, or whose calls exceed their gas, are left out. A failing or too slow chain node is a 503; a chain with too many reads in progress a 503 with \`Retry-After\` (docs/api-behaviour.md#bounded-chain-reads).`,
      response: arr(balanceSchema),
    }),
    bracketedListKey,
    validate({ query: balancesQuery }),
    balancesHandler(deps),
  );
  router.get(
    ['/tokens/:id/allowance/:owner/:spender', '/tokens/:id/allowance/:owner/:spender/'],
    describe({
      summary: 'On-chain allowance of a token',
      description:
        'The ERC20 allowance `owner` gives `spender` for the token `id` (a stored id, or a temporary `tmp-{chainId}-{address}` one), in base units, read on chain with the `blockNumber` it was read at. A contract that answers no allowance (no code, a revert, its gas exceeded) is a 422 naming `id`; a failing or too slow chain node is a 503, a chain with too many reads in progress a 503 with `Retry-After` (docs/api-behaviour.md#bounded-chain-reads).',
      response: obj({
        tokenId: str,
        chainId: int,
        address: str,
        owner: str,
        spender: str,
        allowance: decimal,
        blockNumber: int,
      }),
      errors: [404, 422],
    }),
    validate({ params: allowanceParams }),
    allowanceHandler(deps),
  );
  router.get(
    '/tokens/:id',
    describe({
      summary: 'One token by id',
      description: 'One token by id. A temporary `tmp-{chainId}-{address}` id is a 400: such tokens are not stored.',
      response: tokenSchema,
    }),
    validate({ params: tokenIdParams }),
    getTokenHandler(deps),
  );
  return router;
}
