import { apiGet, downloadCsv, withQuery } from '../shared/api.js';
import { formatAmount, formatPercent, formatUsd } from '../shared/format.js';
import { LineChart } from '../shared/LineChart.js';
import { useApi } from '../shared/useApi.js';
import { useLiveRefresh } from '../shared/useLiveRefresh.js';
import { addressExplorerUrl, safeHttpUrl } from './chainLinks.js';
import { AddressLink } from './AddressLink.js';
import { CopyButton } from './CopyButton.js';
import { ShortHex } from './ShortHex.js';
import { DateTime } from './DateTime.js';
import { campaignStatusAt } from './history.js';
import { loadErrorMessage, shortId } from './ids.js';
import { BackLink, Link, type Navigate } from './Link.js';
import { NativeAprFigure, PricedFigure, TvlFigure } from './PricedFigure.js';
import { DEFAULT_STATE, GRAINS, type ExplorerState, type Grain } from './state.js';
import { SITE_TITLE, useDocumentTitle } from './titles.js';
import type { Campaign, Chain, Opportunity } from './types.js';
import { unknownTvlReason } from './tvlText.js';

export type DetailProps = { state: ExplorerState; navigate: Navigate; chains: Chain[] };

type Series = { t: number; v: number }[];

/** Pure: a chain's name from /v4/chains (the id when unknown). */
export function chainName(chains: readonly Chain[], id: number): string {
  return chains.find((c) => c.id === id)?.name ?? `chain ${id}`;
}

const RECORDS_ITEMS = 100;

/** What changes an opportunity's view (README "Events"). */
const OPPORTUNITY_EVENTS = ['opportunity.changed', 'campaign.created', 'campaign.changed', 'campaign.ended'] as const;

type HistoryKind = 'apr' | 'tvl' | 'daily-rewards';

/** Path of one history route of the opportunity (`/v4/opportunities/{id}/{kind}-records`). */
const recordsPath = (id: string, kind: HistoryKind) => `/v4/opportunities/${id}/${kind}-records`;

/** The opportunity's APR, TVL and daily-rewards records at a grain (three requests at once). */
async function loadHistory(
  id: string,
  grain: Grain,
  signal: AbortSignal,
  fresh: boolean,
): Promise<{ apr: Series; tvl: Series; dailyRewards: Series }> {
  const q = { grain, items: RECORDS_ITEMS, format: 'json' };
  const [apr, tvl, dailyRewards] = await Promise.all([
    apiGet<{ timestamp: string; apr: number }[]>(recordsPath(id, 'apr'), q, { signal, fresh }),
    apiGet<{ timestamp: string; tvl: number }[]>(recordsPath(id, 'tvl'), q, { signal, fresh }),
    apiGet<{ timestamp: string; dailyRewards: number }[]>(recordsPath(id, 'daily-rewards'), q, { signal, fresh }),
  ]);
  return {
    apr: apr.map((r) => ({ t: Number(r.timestamp), v: r.apr })),
    tvl: tvl.map((r) => ({ t: Number(r.timestamp), v: r.tvl })),
    dailyRewards: dailyRewards.map((r) => ({ t: Number(r.timestamp), v: r.dailyRewards })),
  };
}

/** A CSV download button of one history: `format=csv` in the URL, so no cached JSON answer can stand in for it. */
function CsvButton({ id, kind, grain, label }: { id: string; kind: HistoryKind; grain: Grain; label: string }) {
  return (
    <button
      type="button"
      onClick={() =>
        void downloadCsv(
          withQuery(recordsPath(id, kind), { grain, items: RECORDS_ITEMS, format: 'csv' }),
          `${kind}-${id}-${grain}.csv`,
        )
      }
    >
      {label}
    </button>
  );
}

/** One opportunity: tokens, protocol, campaigns with reward tokens and amounts, and its history at a chosen grain. */
export function OpportunityDetail({ state, navigate, chains }: DetailProps) {
  const id = state.opportunity!;
  // Pushed by GET /v4/events when its figures or campaigns change: the view reloads then, never polls.
  const live = useLiveRefresh({ opportunityId: id }, OPPORTUNITY_EVENTS);
  const opp = useApi(
    id,
    (signal, fresh) =>
      apiGet<Opportunity & { campaigns: Campaign[] }>(
        `/v4/opportunities/${encodeURIComponent(id)}/campaigns`,
        {},
        { signal, fresh },
      ),
    live,
  );
  const campaigns = opp.data?.campaigns ?? [];
  const history = useApi(
    opp.data ? `${id}:${state.grain}` : null,
    (signal, fresh) => loadHistory(opp.data!.id, state.grain, signal, fresh),
    live,
  );
  const shown = history.dataKey === `${id}:${state.grain}` ? history.data : undefined;
  const back = { ...state, opportunity: undefined };
  // Opened from the analytics view's top opportunities, "back" returns there (the state keeps `view`).
  const backLabel = state.view === 'analytics' ? '← Back to analytics' : '← Back to the list';
  useDocumentTitle(
    `${opp.data && opp.dataKey === id ? opp.data.name : opp.error ? 'Opportunity not found' : 'Opportunity'} – ${SITE_TITLE}`,
  );
  if (opp.error)
    return (
      <section>
        <BackLink to={back} navigate={navigate}>
          {backLabel}
        </BackLink>
        <h2 tabIndex={-1} data-heading-for={`opportunity:${id}`}>
          Opportunity not shown
        </h2>
        <p class="error" role="alert" data-testid="load-error">
          {loadErrorMessage('opportunity', id, opp.error)}
        </p>
      </section>
    );
  if (!opp.data) return <p aria-busy="true">Loading…</p>;
  const o = opp.data;
  const deposit = safeHttpUrl(o.depositUrl);
  const explorer = addressExplorerUrl(o.chain, o.explorerAddress);
  const now = Date.now() / 1000;
  const firstStart = Math.min(...campaigns.map((c) => Number(c.startTimestamp)).filter(Number.isFinite));
  const marker = Number.isFinite(firstStart)
    ? { t: firstStart, label: campaigns.length > 1 ? 'first campaign starts' : 'campaign starts' }
    : undefined;
  const rows = campaigns
    .map((c) => ({ c, status: campaignStatusAt(Number(c.startTimestamp), Number(c.endTimestamp), now) }))
    .sort((a, b) => Number(a.status !== 'LIVE') - Number(b.status !== 'LIVE'));
  return (
    <article class="detail" data-testid="opportunity-detail">
      <BackLink to={back} navigate={navigate}>
        {backLabel}
      </BackLink>
      <h2 tabIndex={-1} data-heading-for={`opportunity:${opp.dataKey}`}>
        {o.name} <span class={`badge ${o.status.toLowerCase()}`}>{o.status}</span>
      </h2>
      {(deposit || explorer) && (
        <p class="outbound">
          {deposit && (
            <a href={deposit} rel="noopener noreferrer nofollow" data-testid="deposit-link">
              Deposit on {new URL(deposit).host} ↗
            </a>
          )}
          {explorer && (
            <a href={explorer} rel="noopener noreferrer" data-testid="explorer-link">
              {/* A V4 pool or a Morpho market is an id in its protocol's contract, which is what the explorer shows. */}
              {o.explorerAddress !== o.identifier.toLowerCase() && o.protocol ? `${o.protocol.name} contract ` : ''}
              {o.explorerAddress ? shortId(o.explorerAddress) : ''} on the block explorer ↗
            </a>
          )}
        </p>
      )}
      <dl class="facts">
        <div>
          <dt>Chain</dt>
          <dd>{o.chain?.name ?? chainName(chains, o.chainId)}</dd>
        </div>
        <div>
          <dt>Action</dt>
          <dd>{o.action}</dd>
        </div>
        <div>
          <dt>Type</dt>
          <dd>{o.type}</dd>
        </div>
        <div>
          <dt>Protocol</dt>
          <dd>{o.protocol?.name ?? (o.mainProtocol || '–')}</dd>
        </div>
        <div>
          <dt>Programs</dt>
          <dd data-testid="opportunity-programs">
            {o.activePrograms?.length
              ? o.activePrograms.map((p, i) => (
                  <span key={p.id}>
                    {i > 0 ? ', ' : ''}
                    {p.slug ? (
                      <Link
                        to={{ ...DEFAULT_STATE, filters: { programSlugs: p.slug } }}
                        navigate={navigate}
                        testId={`program-${p.slug}`}
                      >
                        {p.name}
                      </Link>
                    ) : (
                      p.name
                    )}
                  </span>
                ))
              : '–'}
          </dd>
        </div>
        <div>
          <dt>TVL</dt>
          <dd data-testid="opportunity-tvl">
            <TvlFigure value={o.tvl} status={o.tvlRecord?.status} format={formatUsd} />
          </dd>
        </div>
        <div>
          <dt>APR</dt>
          <dd data-testid="opportunity-apr">
            {unknownTvlReason(o.tvlRecord?.status) === null ? (
              <PricedFigure value={o.apr} format={formatPercent} unpriced={o.unpricedRewardTokens} />
            ) : (
              <TvlFigure value={o.apr} status={o.tvlRecord?.status} format={formatPercent} />
            )}
          </dd>
        </div>
        <div>
          <dt>Native APR</dt>
          <dd data-testid="opportunity-native-apr">
            <NativeAprFigure value={o.nativeApr} record={o.nativeAprRecord} format={formatPercent} />
          </dd>
        </div>
        <div>
          <dt>Daily rewards (now)</dt>
          <dd data-testid="opportunity-daily-rewards">
            <PricedFigure value={o.dailyRewards} format={formatUsd} unpriced={o.unpricedRewardTokens} />
          </dd>
        </div>
        <div>
          <dt>Identifier</dt>
          <dd data-testid="opportunity-identifier">
            {/^0x[0-9a-fA-F]{15,}$/.test(o.identifier) ? (
              <ShortHex hex={o.identifier} what="identifier" />
            ) : (
              <span class="mono">{o.identifier}</span>
            )}
          </dd>
        </div>
      </dl>
      <h3>Tokens</h3>
      <ul class="tokens">
        {o.tokens.map((t) => (
          <li key={t.id}>
            <strong>{t.symbol}</strong> {t.name} <AddressLink chain={o.chain} address={t.address} />{' '}
            {t.price === null ? '' : `· ${formatUsd(t.price)}`}
          </li>
        ))}
      </ul>
      <h3>Campaigns</h3>
      <table class="campaigns" data-testid="campaign-list">
        <thead>
          <tr>
            <th scope="col">Campaign</th>
            <th scope="col">Status</th>
            <th scope="col">Reward</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col" class="num">
              Daily rewards
            </th>
            <th scope="col" class="num">
              APR
            </th>
            <th scope="col">Window</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ c, status }) => (
            <tr key={c.id} data-testid="campaign-row">
              <td data-label="Campaign" class="campaign-id">
                <Link to={{ ...state, opportunity: undefined, campaign: c.id }} navigate={navigate} openId={c.id}>
                  {c.type} <span class="mono">{shortId(c.campaignId)}</span>
                </Link>{' '}
                <CopyButton text={c.campaignId} what="campaign id" />
              </td>
              <td data-label="Status">
                <span class={`badge ${status.toLowerCase()}`}>{status}</span>
              </td>
              <td data-label="Reward">
                <span class="nowrap" data-testid="campaign-reward">
                  {c.rewardToken.symbol} <span class="muted">({c.rewardToken.type})</span>
                </span>
              </td>
              <td data-label="Amount" class="num">
                {formatAmount(c.amount, c.rewardToken.decimals)}
              </td>
              <td data-label="Daily rewards" class="num">
                <PricedFigure value={c.dailyRewards} format={formatUsd} unpriced={c.unpricedRewardTokens} />
              </td>
              <td data-label="APR" class="num">
                <PricedFigure value={c.apr} format={formatPercent} unpriced={c.unpricedRewardTokens} />
              </td>
              <td data-label="Window">
                <span class="window">
                  <DateTime seconds={c.startTimestamp} /> → <DateTime seconds={c.endTimestamp} />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>History</h3>
      <div class="history-controls">
        <label class="field">
          <span>Grain</span>
          <select
            name="grain"
            value={state.grain}
            onChange={(e) => navigate({ ...state, grain: (e.currentTarget as HTMLSelectElement).value as Grain })}
          >
            {GRAINS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
        <CsvButton id={o.id} kind="apr" grain={state.grain} label="APR CSV" />
        <CsvButton id={o.id} kind="tvl" grain={state.grain} label="TVL CSV" />
        <CsvButton id={o.id} kind="daily-rewards" grain={state.grain} label="Daily rewards CSV" />
      </div>
      {history.error && (
        <p class="error" role="alert">
          The history could not be loaded: {history.error.message}
        </p>
      )}
      <div class="charts">
        <LineChart
          testId="history-apr"
          title={`APR (%), average per ${state.grain}`}
          note={`the opportunity's APR (sum over its live campaigns) in each ${state.grain}`}
          marker={marker}
          loading={history.loading}
          points={shown?.apr ?? []}
          formatValue={formatPercent}
        />
        <LineChart
          testId="history-tvl"
          title={`TVL (USD), average per ${state.grain}`}
          note={`value locked in ${o.name} in each ${state.grain}`}
          marker={marker}
          loading={history.loading}
          points={shown?.tvl ?? []}
          formatValue={formatUsd}
        />
        <LineChart
          testId="history-daily-rewards"
          title={`Daily rewards (USD per day), average per ${state.grain}`}
          note={`rewards its live campaigns distribute per day, valued at each moment's prices, in each ${state.grain}`}
          marker={marker}
          loading={history.loading}
          points={shown?.dailyRewards ?? []}
          formatValue={formatUsd}
        />
      </div>
    </article>
  );
}
