import { formatPercent, formatUsd, keepIdsWhole } from '../shared/format.js';
import { PricedFigure, TvlFigure } from './PricedFigure.js';
import { unknownTvlReason } from './tvlText.js';
import { Link } from './Link.js';
import { SortHeader } from './SortHeader.js';
import type { ExplorerState } from './state.js';
import type { Opportunity } from './types.js';

export type OpportunityListProps = {
  state: ExplorerState;
  navigate: (next: ExplorerState) => void;
  opportunities: Opportunity[];
  loading: boolean;
  total: number | null;
};

/**
 * The current page of opportunities (a table on wide screens, three-line cards on phones) and the
 * pager. `id="results-list"` is where the skip link lands: the first result is a few Tabs on.
 */
export function OpportunityList({ state, navigate, opportunities, loading, total }: OpportunityListProps) {
  const pages = total === null ? null : Math.max(1, Math.ceil(total / state.items));
  return (
    <section aria-label="Opportunities" id="results-list" tabIndex={-1}>
      <div class="table-scroll">
        <table class="opportunities" data-testid="opportunity-list">
          <thead>
            <tr>
              <th scope="col">Opportunity</th>
              <th scope="col">Chain</th>
              <th scope="col">Action</th>
              <th scope="col">Protocol</th>
              <th scope="col">Tokens</th>
              <SortHeader sort="tvl" state={state} navigate={navigate}>
                TVL
              </SortHeader>
              <SortHeader sort="apr" state={state} navigate={navigate}>
                APR
              </SortHeader>
              <SortHeader sort="rewards" state={state} navigate={navigate}>
                Daily rewards
              </SortHeader>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {opportunities.map((o) => (
              <tr key={o.id} data-testid="opportunity-row" data-id={o.id}>
                <td data-label="Opportunity" class="name">
                  <Link to={{ ...state, opportunity: o.id }} navigate={navigate} openId={o.id}>
                    {keepIdsWhole(o.name)}
                  </Link>
                </td>
                <td data-label="Chain" class="meta">
                  {o.chain?.name ?? o.chainId}
                </td>
                <td data-label="Action" class="meta">
                  {o.action}
                </td>
                <td data-label="Protocol" class="meta">
                  {o.protocol?.name ?? (o.mainProtocol || '–')}
                </td>
                <td data-label="Tokens" class="meta meta-tokens">
                  {o.tokens.map((t) => t.symbol).join(', ')}
                </td>
                <td data-label="TVL" data-short="TVL" class="num figure">
                  <TvlFigure value={o.tvl} status={o.tvlRecord?.status} format={formatUsd} />
                </td>
                <td data-label="APR" data-short="APR" class="num figure">
                  {unknownTvlReason(o.tvlRecord?.status) === null || o.apr > 0 ? (
                    <PricedFigure value={o.apr} format={formatPercent} unpriced={o.unpricedRewardTokens} />
                  ) : (
                    <TvlFigure value={o.apr} status={o.tvlRecord?.status} format={formatPercent} />
                  )}
                </td>
                <td data-label="Daily rewards" data-short="Daily" class="num figure">
                  <PricedFigure value={o.dailyRewards} format={formatUsd} unpriced={o.unpricedRewardTokens} />
                </td>
                <td data-label="Status" class="status">
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
