import { formatPercent, formatUsd } from '../shared/format.js';
import { Link } from './Link.js';
import type { ExplorerState } from './state.js';
import type { Opportunity } from './types.js';

export type OpportunityListProps = {
  state: ExplorerState;
  navigate: (next: ExplorerState) => void;
  opportunities: Opportunity[];
  loading: boolean;
  total: number | null;
};

/** The current page of opportunities (a table on wide screens, cards on phones) and the pager. */
export function OpportunityList({ state, navigate, opportunities, loading, total }: OpportunityListProps) {
  const pages = total === null ? null : Math.max(1, Math.ceil(total / state.items));
  return (
    <section aria-label="Opportunities">
      <div class="table-scroll">
        <table class="opportunities" data-testid="opportunity-list">
          <thead>
            <tr>
              <th scope="col">Opportunity</th>
              <th scope="col">Chain</th>
              <th scope="col">Action</th>
              <th scope="col">Protocol</th>
              <th scope="col">Tokens</th>
              <th scope="col" class="num">
                TVL
              </th>
              <th scope="col" class="num">
                APR
              </th>
              <th scope="col" class="num">
                Daily rewards
              </th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {opportunities.map((o) => (
              <tr key={o.id} data-testid="opportunity-row" data-id={o.id}>
                <td data-label="Opportunity">
                  <Link to={{ ...state, opportunity: o.id }} navigate={navigate}>
                    {o.name}
                  </Link>
                </td>
                <td data-label="Chain">{o.chain?.name ?? o.chainId}</td>
                <td data-label="Action">{o.action}</td>
                <td data-label="Protocol">{o.protocol?.name ?? (o.mainProtocol || '–')}</td>
                <td data-label="Tokens">{o.tokens.map((t) => t.symbol).join(', ')}</td>
                <td data-label="TVL" class="num">
                  {formatUsd(o.tvl)}
                </td>
                <td data-label="APR" class="num">
                  {formatPercent(o.apr)}
                </td>
                <td data-label="Daily rewards" class="num">
                  {formatUsd(o.dailyRewards)}
                </td>
                <td data-label="Status">
                  <span class={`badge ${o.status.toLowerCase()}`}>{o.status}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!loading && opportunities.length === 0 && (
        <p class="muted" data-testid="empty">
          No opportunity matches this filter.
        </p>
      )}
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={state.page === 0} onClick={() => navigate({ ...state, page: state.page - 1 })}>
          Previous
        </button>
        <span data-testid="page">
          Page {state.page + 1}
          {pages === null ? '' : ` of ${pages}`}
        </span>
        <button
          type="button"
          disabled={pages === null || state.page + 1 >= pages}
          onClick={() => navigate({ ...state, page: state.page + 1 })}
        >
          Next
        </button>
      </nav>
    </section>
  );
}
