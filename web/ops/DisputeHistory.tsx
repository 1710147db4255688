import { formatTime } from '../shared/format.js';
import type { ChainDisputes, Dispute } from './types.js';

/** How many of each chain's latest disputes the page shows. */
export const DISPUTES_SHOWN = 10;

const short = (hex: string | null) => (hex ? `${hex.slice(0, 8)}…${hex.slice(-6)}` : 'unknown');

/** Pure: a dispute's outcome in words, as the Distributor settled it. */
export function outcomeText(d: Dispute): string {
  if (d.status === 'open') return 'open: the previous root is served until the governor resolves it';
  if (d.status === 'valid') return 'valid: deposit refunded, root revoked';
  const end = d.resolution?.endOfDisputePeriod;
  return `invalid: deposit kept, dispute period restarted${end ? ` (ends ${formatTime(end)})` : ''}`;
}

/**
 * Each chain's dispute history (GET /v4/disputes/{chainId}, read from the Distributor's Disputed and DisputeResolved
 * logs): open disputes first in the summary, then per chain its latest disputes with who, when, why and how it ended.
 */
export function DisputeHistory({ chains }: { chains: ChainDisputes[] }) {
  const open = chains.flatMap((c) => c.disputes.filter((d) => d.status === 'open').map((d) => ({ c, d })));
  return (
    <section class="ops-section" aria-labelledby="disputes-title" data-testid="ops-disputes">
      <h2 id="disputes-title">Root disputes</h2>
      {open.length === 0 ? (
        <p class="notice" data-testid="disputes-none-open">
          No dispute is open on any chain.
        </p>
      ) : (
        <ul class="disputes-open">
          {open.map(({ c, d }) => (
            <li key={d.txHash} data-testid="dispute-open">
              Dispute open on {c.name} (chain {c.chainId}) since {formatTime(d.createdAt)} by {short(d.disputer)}:{' '}
              {d.message || 'no reason given'}
            </li>
          ))}
        </ul>
      )}
      {chains.map((c) => (
        <div key={c.chainId} data-testid={`disputes-chain-${c.chainId}`}>
          <h3 class="disputes-chain">
            {c.name} (chain {c.chainId})
          </h3>
          {c.error ? (
            <p class="error" data-testid="disputes-error">
              Could not read this chain's disputes: {c.error}
            </p>
          ) : c.disputes.length === 0 ? (
            <p class="muted" data-testid="disputes-empty">
              No root of this chain was ever disputed.
            </p>
          ) : (
            <div class="table-scroll">
              <table class="chains disputes">
                <thead>
                  <tr>
                    <th scope="col">Opened</th>
                    <th scope="col">Root</th>
                    <th scope="col">Disputer</th>
                    <th scope="col">Reason</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Resolved</th>
                  </tr>
                </thead>
                <tbody>
                  {c.disputes.map((d) => (
                    <tr key={d.txHash} data-testid="dispute-row" data-status={d.status}>
                      <td data-label="Opened" class="nowrap" title={`block ${d.blockNumber}, tx ${d.txHash}`}>
                        {formatTime(d.createdAt)}
                      </td>
                      <td data-label="Root" title={d.root ?? ''}>
                        <code>{short(d.root)}</code>
                      </td>
                      <td data-label="Disputer" title={d.disputer ?? ''}>
                        <code>{short(d.disputer)}</code>
                      </td>
                      <td data-label="Reason">{d.message || '–'}</td>
                      <td data-label="Outcome">
                        <span
                          class={`badge ${d.status === 'open' ? 'failed' : d.status === 'valid' ? 'skipped' : 'success'}`}
                        >
                          {d.status}
                        </span>{' '}
                        <span data-testid="dispute-outcome">{outcomeText(d)}</span>
                      </td>
                      <td data-label="Resolved" class="nowrap" title={d.resolution?.txHash ?? ''}>
                        {d.resolution ? formatTime(d.resolution.resolvedAt) : '–'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      ))}
    </section>
  );
}
