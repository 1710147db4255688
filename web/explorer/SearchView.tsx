import { useState } from 'preact/hooks';
import { apiGet } from '../shared/api.js';
import { formatCompact, formatPercent, formatUsd } from '../shared/format.js';
import { Histogram, type HistogramBin } from '../shared/Histogram.js';
import { useApi } from '../shared/useApi.js';
import { Filters } from './Filters.js';
import { OpportunityList } from './OpportunityList.js';
import { filterQuery, listQuery, narrowToBin, type ExplorerState, type RangeMetric } from './state.js';
import type { Chain, Opportunity, Protocol } from './types.js';

export type SearchViewProps = { state: ExplorerState; navigate: (next: ExplorerState) => void; chains: Chain[]; protocols: Protocol[] };

type Totals = { count: number; tvl: string; dailyRewards: string; minApr: string | null; maxApr: string | null };
type Bins = Record<'apr' | 'tvl' | 'dailyRewards', HistogramBin[]>;

const O = '/v4/opportunities';

/** Totals of the current filter from the count and aggregate endpoints. */
async function loadTotals(query: Record<string, string>): Promise<Totals> {
  const [count, tvl, daily, min, max] = await Promise.all([
    apiGet<number>(`${O}/count`, query), apiGet<{ sum: string }>(`${O}/aggregate/tvl`, query), apiGet<{ sum: string }>(`${O}/aggregate/dailyRewards`, query),
    apiGet<{ min: string | null }>(`${O}/aggregate/min/apr`, query), apiGet<{ max: string | null }>(`${O}/aggregate/max/apr`, query),
  ]);
  return { count, tvl: tvl.sum, dailyRewards: daily.sum, minApr: min.min, maxApr: max.max };
}

async function loadBins(query: Record<string, string>): Promise<Bins> {
  const [apr, tvl, dailyRewards] = await Promise.all(['apr', 'tvl', 'daily-rewards'].map((m) => apiGet<{ data: HistogramBin[] }>(`${O}/bins/${m}`, query)));
  return { apr: apr!.data, tvl: tvl!.data, dailyRewards: dailyRewards!.data };
}

/** The search page: filters, totals, the three histograms and the paged list, all for the URL's filter. */
export function SearchView({ state, navigate, chains, protocols }: SearchViewProps) {
  // Filters start folded on a phone's width so the results come first.
  const [wide] = useState(() => !matchMedia('(max-width: 760px)').matches);
  const fq = filterQuery(state);
  const filterKey = JSON.stringify(fq);
  const lq = listQuery(state);
  const list = useApi(JSON.stringify(lq), () => apiGet<Opportunity[]>(O, lq));
  const totals = useApi(filterKey, () => loadTotals(fq));
  const bins = useApi(filterKey, () => loadBins(fq));
  const narrow = (metric: RangeMetric, data: HistogramBin[]) => (i: number) => navigate(narrowToBin(state, metric, data, i));
  const error = list.error ?? totals.error ?? bins.error;
  return (
    <div class="search-layout">
      <details class="filters-panel" open={wide}>
        <summary>Filters</summary>
        <Filters state={state} chains={chains} protocols={protocols} onChange={navigate} />
      </details>
      <section class="results" aria-live="polite" aria-busy={list.loading || totals.loading || bins.loading}>
        {error && <p class="error" role="alert">{error.message}</p>}
        <dl class="totals" data-testid="totals">
          <div><dt>Opportunities</dt><dd data-testid="total-count">{totals.data ? totals.data.count : '…'}</dd></div>
          <div><dt>Total TVL</dt><dd data-testid="total-tvl" data-value={totals.data?.tvl}>{totals.data ? formatUsd(totals.data.tvl) : '…'}</dd></div>
          <div><dt>Daily rewards</dt><dd data-testid="total-daily-rewards" data-value={totals.data?.dailyRewards}>{totals.data ? formatUsd(totals.data.dailyRewards) : '…'}</dd></div>
          <div><dt>APR range</dt><dd data-testid="apr-range">{totals.data ? `${formatPercent(totals.data.minApr)} – ${formatPercent(totals.data.maxApr)}` : '…'}</dd></div>
        </dl>
        <div class="histograms">
          <Histogram testId="bins-apr" title="APR (%)" bins={bins.data?.apr ?? []} formatEdge={(v) => `${formatCompact(v)}%`} onSelect={bins.data && narrow('Apr', bins.data.apr)} />
          <Histogram testId="bins-tvl" title="TVL (USD)" bins={bins.data?.tvl ?? []} formatEdge={(v) => `$${formatCompact(v)}`} onSelect={bins.data && narrow('Tvl', bins.data.tvl)} />
          <Histogram testId="bins-daily-rewards" title="Daily rewards (USD)" bins={bins.data?.dailyRewards ?? []} formatEdge={(v) => `$${formatCompact(v)}`} onSelect={bins.data && narrow('DailyRewards', bins.data.dailyRewards)} />
        </div>
        <OpportunityList state={state} navigate={navigate} opportunities={list.data ?? []} loading={list.loading} total={totals.data?.count ?? null} />
      </section>
    </div>
  );
}
