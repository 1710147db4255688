import { addressExplorerUrl } from './chainLinks.js';
import { CopyButton } from './CopyButton.js';
import { shortId } from './ids.js';
import type { Chain } from './types.js';

/**
 * An address on one line, shortened ("0x663f…6602") with the whole of it on hover (`title`) and a
 * copy button; linked to the chain's block explorer when the chain has one. A full address wrapped
 * over three or four lines of a narrow column before (#44).
 */
export function AddressLink({ chain, address }: { chain: Chain | null | undefined; address: string }) {
  const url = addressExplorerUrl(chain, address);
  return (
    <span class="address nowrap" data-testid="address" data-address={address}>
      {url ? (
        <a class="mono" href={url} rel="noopener noreferrer" title={`${address}: open in the block explorer`}>
          {shortId(address)}
        </a>
      ) : (
        <span class="mono" title={address}>
          {shortId(address)}
        </span>
      )}{' '}
      <CopyButton text={address} what="address" />
    </span>
  );
}
