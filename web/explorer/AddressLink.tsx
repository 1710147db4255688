import { addressExplorerUrl } from './chainLinks.js';
import type { Chain } from './types.js';

/** An address in full, linked to the chain's block explorer when the chain has one. */
export function AddressLink({ chain, address }: { chain: Chain | null | undefined; address: string }) {
  const url = addressExplorerUrl(chain, address);
  return url ? (
    <a class="mono" href={url} rel="noopener noreferrer" title="Open in the block explorer">
      {address}
    </a>
  ) : (
    <span class="mono">{address}</span>
  );
}
