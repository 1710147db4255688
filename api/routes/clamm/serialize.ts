import type { ChainConfig } from '../../../internal/config.js';
import type { ClammPoolRow } from './repo.js';
import { CLAMM_PROTOCOLS, type ClammProtocol } from './schema.js';

const ZERO = '0x0000000000000000000000000000000000000000';

/** A concentrated-liquidity pool in the hosted `clamm/pools` shape, with the campaigns on it. */
export type ClammPool = {
  chainId: number;
  poolId: string;
  protocol: ClammProtocol;
  currency0: string;
  currency1: string;
  decimalsCurrency0: number | null;
  decimalsCurrency1: number | null;
  symbolCurrency0: string | null;
  symbolCurrency1: string | null;
  lpFee: number | null;
  tickSpacing: number | null;
  hooks: string;
  opportunityId: string;
  campaignIds: string[];
};

const protocolOf = (type: string): ClammProtocol =>
  (Object.keys(CLAMM_PROTOCOLS) as ClammProtocol[]).find((p) => CLAMM_PROTOCOLS[p] === type)!;

/**
 * Pure: a pool row → its record. A currency without a tokens row that is the zero address (a V4
 * pool's native currency) takes the chain's native token symbol and decimals; a V3 pool has no hooks
 * (the zero address, as the hosted service answers).
 */
export function clammPool(row: ClammPoolRow, chain: Pick<ChainConfig, 'nativeToken'> | undefined): ClammPool {
  const [c0, c1] = row.tokens as [string, string];
  const native = (address: string) => (address === ZERO ? chain?.nativeToken : undefined);
  return {
    chainId: row.chain_id,
    poolId: row.identifier,
    protocol: protocolOf(row.type),
    currency0: c0,
    currency1: c1,
    decimalsCurrency0: row.decimals0 ?? native(c0)?.decimals ?? null,
    decimalsCurrency1: row.decimals1 ?? native(c1)?.decimals ?? null,
    symbolCurrency0: row.symbol0 ?? native(c0)?.symbol ?? null,
    symbolCurrency1: row.symbol1 ?? native(c1)?.symbol ?? null,
    lpFee: row.fee,
    tickSpacing: row.tick_spacing,
    hooks: row.hooks ?? ZERO,
    opportunityId: row.opportunity_id,
    campaignIds: row.campaign_ids,
  };
}
