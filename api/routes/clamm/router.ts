import Router from '@koa/router';
import type { ApiDeps } from '../../deps.js';
import { describe } from '../../openapi/describe.js';
import { arr, int, nullable, obj, oneOfValues, str, stringMap } from '../../openapi/schemaHelpers.js';
import { validate } from '../../validate.js';
import { clammPoolsHandler } from './handlers.js';
import {
  CLAMM_PROTOCOLS,
  clammChainParams,
  clammChainPoolParams,
  clammPoolsQuery,
  clammProtocolParams,
  clammProtocolPoolParams,
} from './schema.js';

const poolSchema = obj({
  chainId: int,
  poolId: str,
  protocol: oneOfValues(Object.keys(CLAMM_PROTOCOLS)),
  currency0: str,
  currency1: str,
  decimalsCurrency0: nullable(int),
  decimalsCurrency1: nullable(int),
  symbolCurrency0: nullable(str),
  symbolCurrency1: nullable(str),
  lpFee: nullable(int),
  tickSpacing: nullable(int),
  hooks: str,
  opportunityId: str,
  campaignIds: arr(str),
});

const example = {
  '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8': {
    chainId: 1,
    poolId: '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8',
    protocol: 'uniswap-v3',
    currency0: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    currency1: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    decimalsCurrency0: 6,
    decimalsCurrency1: 18,
    symbolCurrency0: 'USDC',
    symbolCurrency1: 'WETH',
    lpFee: 3000,
    tickSpacing: 60,
    hooks: '0x0000000000000000000000000000000000000000',
    opportunityId: '3419120871309874566',
    campaignIds: ['7120318201922340012'],
  },
};

const DESCRIPTION =
  "Concentrated-liquidity pools of `chainId` with incentives here: Uniswap V3 pools (CLAMM campaigns; `poolId` is the pool's address) and Uniswap V4 pools (UNISWAP_V4 campaigns; `poolId` is the pool id, the PoolKey's hash), keyed by `poolId` as the hosted `clamm/pools` answers. Each pool carries its key as the metrics job read it from the chain: `currency0`/`currency1` (the zero address is the native token), their `symbol…`/`decimals…` (null for a token not indexed yet), `lpFee` in hundredths of a bip (8388608 is a V4 dynamic fee), `tickSpacing` (null until the pool is read again after an upgrade) and `hooks` (the zero address for none and for every V3 pool). Beyond the hosted shape: `opportunityId` and `campaignIds`, the campaigns on the pool the caller may see; a pool none of whose campaigns the caller may see is not listed (with `showPrivate=true`, the private campaigns the caller's session or API key may read count too). A pool whose key has not been read yet (the metrics job reads it on its next run) is not listed. `page`/`items` page through the pools in `poolId` order (1000 a page by default). With a `poolId`, that pool alone, or `{}` when we have no such pool. A chain we do not index is a 400 naming `chainId`.";

/** GET /v4/clamm/pools/…: concentrated-liquidity pools (our Uniswap V3 and V4 opportunities) with their campaigns. */
export function clammRouter(deps: ApiDeps): Router {
  const router = new Router({ prefix: '/clamm/pools' });
  const doc = (summary: string, description: string) =>
    describe({ summary, description, response: stringMap(poolSchema), example });
  const PROTOCOL = ' `protocol` is `uniswap-v3` or `uniswap-v4` (our protocol ids, GET /v4/protocols).';
  // The protocol routes first: `protocol` would otherwise be read as a chain id (and refused).
  router.get(
    ['/protocol/:chainId/:protocol', '/protocol/:chainId/:protocol/'],
    doc('Concentrated-liquidity pools of one protocol on a chain, with their campaigns', DESCRIPTION + PROTOCOL),
    validate({ params: clammProtocolParams, query: clammPoolsQuery }),
    clammPoolsHandler(deps),
  );
  router.get(
    ['/protocol/:chainId/:protocol/:poolId', '/protocol/:chainId/:protocol/:poolId/'],
    doc('One concentrated-liquidity pool of a protocol on a chain, with its campaigns', DESCRIPTION + PROTOCOL),
    validate({ params: clammProtocolPoolParams, query: clammPoolsQuery }),
    clammPoolsHandler(deps),
  );
  router.get(
    ['/:chainId', '/:chainId/'],
    doc('Concentrated-liquidity pools of a chain (Uniswap V3 and V4), with their campaigns', DESCRIPTION),
    validate({ params: clammChainParams, query: clammPoolsQuery }),
    clammPoolsHandler(deps),
  );
  router.get(
    ['/:chainId/:poolId', '/:chainId/:poolId/'],
    doc('One concentrated-liquidity pool of a chain, with its campaigns', DESCRIPTION),
    validate({ params: clammChainPoolParams, query: clammPoolsQuery }),
    clammPoolsHandler(deps),
  );
  return router;
}
