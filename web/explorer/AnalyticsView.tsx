import { apiGet } from '../shared/api.js';
import { formatCompact, formatCount, formatUsd, formatUsdExact } from '../shared/format.js';
import { StackedBars, type StackedSeries } from '../shared/StackedBars.js';
import { useApi } from '../shared/useApi.js';
import { Link, type Navigate } from './Link.js';
import { chainName } from './OpportunityDetail.js';
import { STACKS, type ExplorerState, type Stack } from './state.js';
import { stackKeys } from './stackKeys.js';
import { SITE_TITLE, useDocumentTitle } from './titles.js';
import type { Chain, Protocol } from './types.js';

/** An item of GET /v4/rewards/total/distributed/by-opportunities. */
type TopOpportunity = {
  opportunityId: string;
  name: string | null;
  chainId: number | null;
  usd: number;
  campaigns: number;
};

const TOP_ITEMS = 10;
/** Colours told apart with most colour-vision deficiencies (Tableau 10); past ten, the legend and table name them. */
const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];

/** Both monthly series of one stacking: USD distributed by the live roots, campaigns created. */
async function loadSeries(stack: Stack, signal: AbortSignal) {
  const [distributed, counts] = await Promise.all([
    apiGet<StackedSeries>(`/v4/rewards/total/distributed/by-${stack}s`, { grain: 'month' }, { signal }),
    apiGet<StackedSeries>(`/v4/campaigns/count/by-${stack}s`, { grain: 'month' }, { signal }),
  ]);
  return { distributed, counts };
}

/** The totals over every month, whatever the stacking (campaigns without a protocol are in no protocol's stack). */
async function loadTotals(signal: AbortSignal) {
  const [distributed, campaigns] = await Promise.all([
    apiGet<number>('/v4/rewards/total/distributed', {}, { signal }),
    apiGet<number>('/v4/campaigns/count', {}, { signal }),
  ]);
  return { distributed, campaigns };
}

export type AnalyticsProps = { state: ExplorerState; navigate: Navigate; chains: Chain[]; protocols: Protocol[] };

/**
 * Rewards distributed and campaigns created per month, stacked by chain or protocol, and the
 * opportunities whose campaigns were distributed the most (issue #33), from the API's routes only.
 */
export function AnalyticsView({ state, navigate, chains, protocols }: AnalyticsProps) {
  const stack: Stack = state.stack ?? 'chain';
  const series = useApi(`analytics:${stack}`, (signal) => loadSeries(stack, signal));
  const totals = useApi('analytics:totals', loadTotals);
  const top = useApi('analytics:top', (signal) =>
    apiGet<TopOpportunity[]>('/v4/rewards/total/distributed/by-opportunities', { items: TOP_ITEMS }, { signal }),
  );
  useDocumentTitle(`Analytics: rewards distributed and campaigns created per month, by ${stack} – ${SITE_TITLE}`);
  const shown = series.data;
  const settling = series.loading || series.dataKey !== `analytics:${stack}`;
  const keys = shown ? stackKeys(shown.distributed, shown.counts) : [];
  const colorOf = (key: string) => PALETTE[Math.max(0, keys.indexOf(key)) % PALETTE.length]!;
  const shownStack = series.dataKey?.slice('analytics:'.length) as Stack | undefined;
  const labelOf = (key: string) =>
    shownStack === 'protocol'
      ? key === 'none'
        ? 'no protocol'
        : (protocols.find((p) => p.id === key)?.name ?? key)
      : chainName(chains, Number(key));
  const keyHeading = shownStack === 'protocol' ? 'Protocol' : 'Chain';
  return (
    <section class="analytics" data-testid="analytics" data-stack={settling ? undefined : stack}>
      <h2 tabIndex={-1} data-heading-for="analytics">
        Analytics
      </h2>
      <fieldset class="stack-toggle">
        <legend>Stack the months by</legend>
        {STACKS.map((s) => (
          <label key={s}>
            <input
              type="radio"
              name="stack"
              value={s}
              checked={stack === s}
              onChange={() =>
                navigate({ ...state, stack: s === 'protocol' ? 'protocol' : undefined }, { replace: true })
              }
            />{' '}
            {s}
          </label>
        ))}
      </fieldset>
      <dl class="totals">
        <div>
          <dt>Rewards distributed (USD)</dt>
          <dd data-testid="analytics-distributed-total" data-value={totals.data?.distributed}>
            {totals.data ? formatUsdExact(totals.data.distributed) : totals.error ? '–' : '…'}
          </dd>
        </div>
        <div>
          <dt>Campaigns created</dt>
          <dd data-testid="analytics-campaigns-total" data-value={totals.data?.campaigns}>
            {totals.data ? formatCount(totals.data.campaigns) : totals.error ? '–' : '…'}
          </dd>
        </div>
      </dl>
      {series.error && series.dataKey === `analytics:${stack}` ? (
        <p class="error" role="alert" data-testid="load-error">
          The monthly figures could not be loaded: {series.error.message}
        </p>
      ) : (
        <div class={settling && shown ? 'settling' : undefined} aria-busy={settling}>
          <div class="charts">
            <StackedBars
              testId="analytics-distributed"
              title={`Rewards distributed per month (USD), by ${shownStack ?? stack}`}
              note={`what the live roots distributed each month, valued at each root's day; by ${shownStack === 'protocol' ? "the campaign's main protocol" : 'distribution chain'}`}
              series={shown?.distributed ?? {}}
              keys={keys}
              labelOf={labelOf}
              colorOf={colorOf}
              headings={{ period: 'Month', key: keyHeading, value: 'Distributed (USD)' }}
              formatValue={formatUsd}
              formatExact={formatUsdExact}
              loading={!shown}
              empty="No rewards distributed yet"
            />
            <StackedBars
              testId="analytics-campaigns"
              title={`Campaigns created per month, by ${shownStack ?? stack}`}
              note={`campaigns by the month they were created; by ${shownStack === 'protocol' ? "the campaign's main protocol (campaigns without one are not shown)" : 'the chain they reward activity on'}`}
              series={shown?.counts ?? {}}
              keys={keys}
              labelOf={labelOf}
              colorOf={colorOf}
              headings={{ period: 'Month', key: keyHeading, value: 'Campaigns' }}
              formatValue={formatCompact}
              formatExact={formatCount}
              loading={!shown}
              empty="No campaigns yet"
            />
          </div>
        </div>
      )}
      <h3>Top opportunities by rewards distributed</h3>
      {top.error ? (
        <p class="error" role="alert" data-testid="top-load-error">
          The top opportunities could not be loaded: {top.error.message}
        </p>
      ) : !top.data ? (
        <p aria-busy="true">Loading…</p>
      ) : top.data.length === 0 ? (
        <p class="muted" data-testid="top-empty">
          No campaign has distributed rewards yet.
        </p>
      ) : (
        <table class="campaigns top-opportunities" data-testid="top-opportunities">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Opportunity</th>
              <th scope="col">Chain</th>
              <th scope="col" class="num">
                Campaigns
              </th>
              <th scope="col" class="num">
                Distributed
              </th>
            </tr>
          </thead>
          <tbody>
            {top.data.map((o, i) => (
              <tr key={o.opportunityId} data-testid="top-opportunity-row" data-id={o.opportunityId} data-usd={o.usd}>
                <td data-label="#" class="rank">
                  {i + 1}
                </td>
                <td data-label="Opportunity" class="name">
                  <Link
                    to={{ ...state, opportunity: o.opportunityId }}
                    navigate={navigate}
                    openId={o.opportunityId}
                    testId="top-opportunity-link"
                  >
                    {o.name ?? o.opportunityId}
                  </Link>
                </td>
                <td data-label="Chain" class="chain">
                  {o.chainId === null ? '–' : chainName(chains, o.chainId)}
                </td>
                <td data-label="Campaigns" class="num count">
                  {formatCount(o.campaigns)}
                </td>
                <td data-label="Distributed" class="num usd">
                  {formatUsdExact(o.usd)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
