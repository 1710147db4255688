import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, apiGet } from '../shared/api.js';
import { formatCompact, formatUsd } from '../shared/format.js';
import { Histogram, type HistogramBin } from '../shared/Histogram.js';
import { useApi } from '../shared/useApi.js';
import { apiFieldProblems, filterProblems, rangeProblems } from './filterProblems.js';
import { Filters } from './Filters.js';
import type { Navigate } from './Link.js';
import { Notices } from './Notices.js';
import { OpportunityList } from './OpportunityList.js';
import { filterQuery, listQuery, narrowToBin, type ExplorerState, type FilterKey, type RangeMetric } from './state.js';
import { aprRangeText } from './aprRangeText.js';
import { searchTitle, useDocumentTitle } from './titles.js';
import type { Chain, Opportunity, Program, Protocol } from './types.js';
import { binsWithinFilter } from './visibleBins.js';

export type SearchViewProps = {
  state: ExplorerState;
  navigate: Navigate;
  chains: Chain[];
  protocols: Protocol[];
  programs?: Program[];
};

/** GET /v4/opportunities/summary: totals and the three distributions of one filter. */
type Summary = {
  count: number;
  tvl: string | null;
  dailyRewards: string | null;
  minApr: string | null;
  maxApr: string | null;
  bins: Record<'apr' | 'tvl' | 'dailyRewards', HistogramBin[]>;
};
/** Everything the results show, for one state: never parts of two. */
type View = { list: Opportunity[]; summary: Summary; state: ExplorerState };

const O = '/v4/opportunities';

/** The list and the summary of a state: two requests, shown together when both have answered. */
function loadView(state: ExplorerState, signal: AbortSignal): Promise<View> {
  return Promise.all([
    apiGet<Opportunity[]>(O, listQuery(state), { signal }),
    apiGet<Summary>(`${O}/summary`, filterQuery(state), { signal }),
  ]).then(([list, summary]) => ({ list, summary, state }));
}

/** The search page: filters, totals, the three histograms and the paged list, all for the URL's filter. */
export function SearchView({ state, navigate, chains, protocols, programs = [] }: SearchViewProps) {
  // Filters start folded on a phone's width so the results come first.
  const [wide] = useState(() => !matchMedia('(max-width: 760px)').matches);
  const key = JSON.stringify(listQuery(state));
  const view = useApi(key, (signal) => loadView(state, signal));
  const data = view.data;
  const pages = data ? Math.max(1, Math.ceil(data.summary.count / state.items)) : null;
  // ?page=99 of a two-page result: the last page instead, in place of this history entry.
  useEffect(() => {
    if (view.dataKey === key && pages !== null && state.page >= pages)
      navigate({ ...state, page: pages - 1 }, { replace: true });
  }, [view.dataKey, key, pages]);
  const addressProblems = useMemo(() => filterProblems(location.search), [location.search]);
  const reset = (keys: string[]) => {
    const filters = { ...state.filters };
    for (const k of keys) delete filters[k as FilterKey];
    const defaults = { sort: 'lastCampaignCreatedAt', order: 'desc', items: 20, grain: 'day' } as const;
    navigate(
      {
        ...state,
        ...Object.fromEntries(keys.filter((k) => k in defaults).map((k) => [k, defaults[k as keyof typeof defaults]])),
        filters,
        page: 0,
      },
      { replace: true },
    );
  };
  const swap = (metric: RangeMetric) =>
    navigate({
      ...state,
      page: 0,
      filters: {
        ...state.filters,
        [`minimum${metric}`]: state.filters[`maximum${metric}`],
        [`maximum${metric}`]: state.filters[`minimum${metric}`],
      },
    });
  const refused =
    view.error instanceof ApiError && view.error.status === 400 ? apiFieldProblems(view.error.errors) : [];
  const narrow = (metric: RangeMetric, bins: HistogramBin[]) => (i: number) =>
    navigate(narrowToBin(data?.state ?? state, metric, bins, i));
  const clamping = pages !== null && data!.state.page >= pages;
  const stale = view.loading || view.dataKey !== key || clamping;
  const s = data?.summary;
  /** The state the shown data belongs to (the filter panel already shows the requested one). */
  const shown = data?.state ?? state;
  useDocumentTitle(searchTitle(state, stale ? null : (s?.count ?? null), chains, protocols, programs));
  /** The bins of a metric that the shown filter's range can hold (none drawn below its minimum). */
  const bins = (metric: RangeMetric, key: keyof Summary['bins']) => binsWithinFilter(s?.bins[key] ?? [], shown, metric);
  const [aprBins, tvlBins, rewardBins] = [bins('Apr', 'apr'), bins('Tvl', 'tvl'), bins('DailyRewards', 'dailyRewards')];
  return (
    <div class="search-layout">
      <details class="filters-panel" open={wide}>
        <summary>Filters</summary>
        <Filters state={state} chains={chains} protocols={protocols} programs={programs} onChange={navigate} />
      </details>
      <section
        class="results"
        aria-live="polite"
        aria-busy={stale}
        data-testid="results"
        data-view={view.dataKey ?? ''}
        data-ready={String(!stale && !!data && chains.length > 0)}
      >
        <Notices
          problems={addressProblems}
          kind="warning"
          onReset={reset}
          resetAll="Remove them from the address"
          testId="address-problems"
        />
        {rangeProblems(state).map((p) => (
          <div class="filter-notice warning" role="status" data-testid="range-problem" key={p.metric}>
            {p.message}{' '}
            <button type="button" class="link" onClick={() => swap(p.metric)}>
              Swap minimum and maximum
            </button>{' '}
            <button type="button" class="link" onClick={() => reset(p.keys)}>
              Clear this range
            </button>
          </div>
        ))}
        {refused.length > 0 ? (
          <Notices problems={refused} kind="error" onReset={reset} testId="refused-filter" />
        ) : (
          view.error && (
            <p class="error" role="alert">
              The opportunities could not be loaded: {view.error.message}.{' '}
              <button type="button" class="link" onClick={() => navigate({ ...state })}>
                Retry
              </button>
            </p>
          )
        )}
        {!view.error && (
          <div class={stale && data ? 'settling' : ''}>
            <dl class="totals" data-testid="totals">
              <div>
                <dt>Opportunities</dt>
                <dd data-testid="total-count">{s ? s.count : '…'}</dd>
              </div>
              <div>
                <dt>Total TVL</dt>
                <dd data-testid="total-tvl" data-value={s?.tvl}>
                  {s ? formatUsd(s.tvl) : '…'}
                </dd>
              </div>
              <div>
                <dt>Daily rewards</dt>
                <dd data-testid="total-daily-rewards" data-value={s?.dailyRewards}>
                  {s ? formatUsd(s.dailyRewards) : '…'}
                </dd>
              </div>
              <div>
                <dt>APR range</dt>
                <dd data-testid="apr-range">{s ? aprRangeText(s) : '…'}</dd>
              </div>
            </dl>
            {/* An empty result has no distribution to show: the list says "no opportunity matches". */}
            <div class="histograms" hidden={s?.count === 0}>
              <Histogram
                testId="bins-apr"
                title="APR (%)"
                bins={aprBins}
                loading={!s}
                formatEdge={(v) => `${formatCompact(v)}%`}
                onSelect={s && narrow('Apr', aprBins)}
              />
              <Histogram
                testId="bins-tvl"
                title="TVL (USD)"
                bins={tvlBins}
                loading={!s}
                formatEdge={(v) => `$${formatCompact(v)}`}
                onSelect={s && narrow('Tvl', tvlBins)}
              />
              <Histogram
                testId="bins-daily-rewards"
                title="Daily rewards (USD)"
                bins={rewardBins}
                loading={!s}
                formatEdge={(v) => `$${formatCompact(v)}`}
                onSelect={s && narrow('DailyRewards', rewardBins)}
              />
            </div>
            <OpportunityList
              state={shown}
              navigate={navigate}
              opportunities={clamping ? [] : (data?.list ?? [])}
              loading={!data || clamping}
              total={s?.count ?? null}
            />
          </div>
        )}
      </section>
    </div>
  );
}
