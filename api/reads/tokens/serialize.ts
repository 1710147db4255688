import type { TokenRecord } from '../../../domain/documents/records.js';
import type { ServedPrice } from '../../../domain/prices.js';
import type { TokenRow } from '../../../domain/readTokenMetadata.js';
import type { TokenDbRow } from './repo.js';

/** Public Token record, as every route answering a token serves it (TOKEN_RECORD_SCHEMA, domain). */
export type TokenResponse = TokenRecord;

/**
 * Pure: a stored token and its served price (toServedPrice: a stale price is null) → Token record.
 * `displaySymbol` falls back to the symbol; `underlyingTokenId` is present only when the token wraps
 * another; we raise no price alerts, so `priceAlertCount` is 0 and `priceAlertDismissedAt` absent.
 */
export function serializeToken(row: TokenDbRow, price: ServedPrice): TokenResponse {
  return {
    id: row.id,
    name: row.name,
    chainId: row.chain_id,
    address: row.address,
    decimals: row.decimals,
    symbol: row.symbol,
    icon: row.icon,
    verified: row.verified,
    isNative: row.is_native,
    isTest: row.is_test,
    type: row.type,
    price: price.price,
    updatedAt: price.updatedAt,
    priceSource: price.priceSource,
    displaySymbol: row.display_symbol ?? row.symbol,
    ...(row.underlying_token_id ? { underlyingTokenId: row.underlying_token_id } : {}),
    priceAlertCount: 0,
  };
}

/** Temporary id of a token read from the chain but not stored (`tmp-{chainId}-{address}`). */
export const tmpTokenId = (chainId: number, address: string): string => `tmp-${chainId}-${address.toLowerCase()}`;

/** Pure: ERC20 metadata read from the chain → a Token record with a temporary id and no price. */
export function serializeChainToken(meta: TokenRow): TokenResponse {
  return serializeToken(
    {
      id: tmpTokenId(meta.chainId, meta.address),
      chain_id: meta.chainId,
      address: meta.address.toLowerCase(),
      name: meta.name,
      symbol: meta.symbol,
      decimals: meta.decimals,
      icon: '',
      verified: false,
      is_native: false,
      is_test: false,
      type: 'TOKEN',
      display_symbol: null,
      underlying_token_id: null,
    },
    { price: null, updatedAt: null, priceSource: null },
  );
}
