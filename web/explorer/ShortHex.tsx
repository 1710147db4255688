import { CopyButton } from './CopyButton.js';
import { shortId } from './ids.js';

/** A long hex value (a market or pool id, an identifier) on one line: shortened, whole on hover, with a copy button. */
export function ShortHex({ hex, what = 'value' }: { hex: string; what?: string }) {
  return (
    <span class="nowrap" data-testid="short-hex">
      <span class="mono" title={hex}>
        {shortId(hex)}
      </span>{' '}
      <CopyButton text={hex} what={what} />
    </span>
  );
}
