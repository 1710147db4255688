import type { Chain } from './types.js';

/** Pure: `url` when it is an http(s) address (a deposit URL comes from a campaign's creator: no `javascript:`). */
export function safeHttpUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Pure: the block explorer page of an address on a chain (the chain's first explorer), or null when it has none. */
export function addressExplorerUrl(
  chain: Pick<Chain, 'explorers'> | null | undefined,
  address: string | null | undefined,
): string | null {
  const base = safeHttpUrl(chain?.explorers?.[0]?.url);
  if (!base || !address || !/^0x[0-9a-fA-F]{40}$/.test(address)) return null;
  return `${base.replace(/\/+$/, '')}/address/${address}`;
}
