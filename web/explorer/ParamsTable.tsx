import { AddressLink } from './AddressLink.js';
import { paramRows, rawCampaignData, type ParamValue } from './campaignParams.js';
import { CopyButton } from './CopyButton.js';
import { ShortHex } from './ShortHex.js';
import type { Chain } from './types.js';

function Value({ value, chain }: { value: ParamValue; chain: Chain | null }) {
  if (value.kind === 'address') return <AddressLink chain={chain} address={value.address} />;
  if (value.kind === 'id') return <ShortHex hex={value.hex} />;
  if (value.kind === 'text') return <span class={value.mono ? 'mono' : undefined}>{value.text}</span>;
  return (
    <ul class="param-list">
      {value.items.map((item, i) => (
        <li key={i}>
          <Value value={item} chain={chain} />
        </li>
      ))}
    </ul>
  );
}

/**
 * A campaign's parameters as the API decodes them (`params`), one labelled row each, addresses
 * linked to the compute chain's explorer; the raw `campaignData` they come from once, folded.
 */
export function ParamsTable({ params, type, chain }: { params: unknown; type: string; chain: Chain | null }) {
  const fields = params && typeof params === 'object' ? (params as Record<string, unknown>) : {};
  const rows = paramRows(fields, type);
  const raw = rawCampaignData(fields);
  return (
    <>
      <table class="params" data-testid="campaign-params">
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-key={r.key}>
              <th scope="row">{r.label}</th>
              <td>
                <Value value={r.value} chain={chain} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {raw && (
        <details class="raw-data" data-testid="raw-campaign-data">
          <summary>Raw campaign data ({(raw.length - 2) / 2} bytes, ABI-encoded)</summary>
          <p class="mono">{raw}</p>
          <CopyButton text={raw} what="raw campaign data" />
        </details>
      )}
    </>
  );
}
