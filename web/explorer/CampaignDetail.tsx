import { apiGet } from '../shared/api.js';
import { formatAmount, formatPercent, formatTime, formatUsd } from '../shared/format.js';
import { LineChart } from '../shared/LineChart.js';
import { saveFile } from '../shared/saveFile.js';
import { useApi } from '../shared/useApi.js';
import { useLiveRefresh } from '../shared/useLiveRefresh.js';
import { AddressLink } from './AddressLink.js';
import { ParamsTable } from './ParamsTable.js';
import { CopyButton } from './CopyButton.js';
import { DateTime } from './DateTime.js';
import { campaignMetricsCsv } from './campaignMetricsCsv.js';
import { campaignStatusAt } from './history.js';
import { loadErrorMessage, shortId } from './ids.js';
import { BackLink, Link } from './Link.js';
import { PricedFigure } from './PricedFigure.js';
import { chainName, type DetailProps } from './OpportunityDetail.js';
import { SITE_TITLE, useDocumentTitle } from './titles.js';
import type { Campaign, CampaignMetrics, LinkedCampaign } from './types.js';

/** Snapshots per chart (the API's maximum; oldest first): a past campaign's whole window at the demo's 6-hour snapshots and more. */
const SERIES_LIMITS = { 'apr[limit]': 1000, 'tvl[limit]': 1000, 'dailyRewards[limit]': 1000 };

/** What changes a campaign's view (README "Events"). */
const CAMPAIGN_EVENTS = ['campaign.changed', 'campaign.ended'] as const;

type Loaded = { campaign: Campaign; linked: LinkedCampaign[]; metrics: CampaignMetrics };

async function loadCampaign(id: string, signal: AbortSignal, fresh: boolean): Promise<Loaded> {
  const path = `/v4/campaigns/${encodeURIComponent(id)}`;
  const [campaign, linked, metrics] = await Promise.all([
    apiGet<Campaign>(path, {}, { signal, fresh }),
    apiGet<LinkedCampaign[]>(`${path}/linked`, {}, { signal, fresh }),
    apiGet<CampaignMetrics>(`${path}/metrics`, SERIES_LIMITS, { signal, fresh }),
  ]);
  return { campaign, linked, metrics };
}

/** Pure: a campaign's readable name, "97 RWD ERC20 campaign" (campaigns have no name of their own). */
export function campaignName(c: Pick<Campaign, 'amount' | 'rewardToken' | 'type'>): string {
  return `${formatAmount(c.amount, c.rewardToken.decimals)} ${c.rewardToken.symbol || 'token'} ${c.type} campaign`;
}

/** One campaign: its opportunity, decoded parameters, status, the parent/sub-campaign tree and its metrics. */
export function CampaignDetail({ state, navigate, chains }: DetailProps) {
  const id = state.campaign!;
  // Pushed by GET /v4/events when the campaign is overridden, reallocated, made public or ends: reloads then, never polls.
  const live = useLiveRefresh({ campaignId: id }, CAMPAIGN_EVENTS);
  const { data, error, dataKey } = useApi(id, (signal, fresh) => loadCampaign(id, signal, fresh), live);
  const opportunityId = data?.campaign.opportunityId ?? null;
  // The opportunity's name, for the title and the way back (the campaign record names only its id).
  const opportunity = useApi(opportunityId, (signal) =>
    apiGet<{ name: string }>(`/v4/opportunities/${encodeURIComponent(opportunityId!)}`, {}, { signal }),
  );
  const oppName = opportunity.dataKey === opportunityId ? opportunity.data?.name : undefined;
  const c = data?.campaign;
  useDocumentTitle(
    `${c && dataKey === id ? `${campaignName(c)}${oppName ? ` on ${oppName}` : ''}` : error ? 'Campaign not found' : 'Campaign'} – ${SITE_TITLE}`,
  );
  if (error)
    return (
      <section>
        <BackLink to={{ ...state, campaign: undefined }} navigate={navigate}>
          ← Back to the list
        </BackLink>
        <h2 tabIndex={-1} data-heading-for={`campaign:${id}`}>
          Campaign not shown
        </h2>
        <p class="error" role="alert" data-testid="load-error">
          {loadErrorMessage('campaign', id, error)}
        </p>
      </section>
    );
  if (!data || !c) return <p aria-busy="true">Loading…</p>;
  const { linked, metrics } = data;
  // A campaign belongs to one opportunity: "Back" goes there (history.back() when it came from there).
  const back = { ...state, campaign: undefined, opportunity: c.opportunityId };
  const status = campaignStatusAt(Number(c.startTimestamp), Number(c.endTimestamp), Date.now() / 1000);
  const minDepth = Math.min(0, ...linked.map((l) => l.depth));
  const start = { t: Number(c.startTimestamp), label: 'campaign starts' };
  // History is recorded only while a campaign is live (one snapshot per metrics run).
  const empty =
    status === 'SOON'
      ? `No history yet: it starts ${formatTime(c.startTimestamp)}`
      : status === 'PAST'
        ? 'No snapshot was recorded while it was live'
        : 'No history yet';
  return (
    <article class="detail" data-testid="campaign-detail">
      <BackLink to={back} navigate={navigate}>
        ← Back to {oppName ?? 'its opportunity'}
      </BackLink>
      <h2 tabIndex={-1} data-heading-for={`campaign:${dataKey}`}>
        {campaignName(c)} <span class={`badge ${status.toLowerCase()}`}>{status}</span>
      </h2>
      <p class="campaign-id" data-testid="campaign-id">
        Campaign id{' '}
        <span class="mono" title={c.campaignId}>
          {shortId(c.campaignId)}
        </span>{' '}
        <CopyButton text={c.campaignId} what="campaign id" />
        {oppName && (
          <>
            {' '}
            · on{' '}
            <Link to={back} navigate={navigate}>
              {oppName}
            </Link>
          </>
        )}
      </p>
      <dl class="facts">
        <div>
          <dt>Type</dt>
          <dd>
            {c.type}
            {c.subType === null ? '' : ` / ${c.subType}`}
          </dd>
        </div>
        <div>
          <dt>Reward</dt>
          <dd>
            {formatAmount(c.amount, c.rewardToken.decimals)} {c.rewardToken.symbol}{' '}
            <AddressLink chain={c.distributionChain ?? c.chain} address={c.rewardToken.address} />
          </dd>
        </div>
        <div>
          <dt>Distribution</dt>
          <dd>{c.distributionType}</dd>
        </div>
        <div>
          <dt>Chains</dt>
          <dd data-testid="campaign-chains">
            {c.computeChainId === c.distributionChainId
              ? `${chainName(chains, c.computeChainId)} (computed and distributed)`
              : `computed on ${chainName(chains, c.computeChainId)}, distributed on ${chainName(chains, c.distributionChainId)}`}
          </dd>
        </div>
        <div>
          <dt>Start</dt>
          <dd>
            <DateTime seconds={c.startTimestamp} />
          </dd>
        </div>
        <div>
          <dt>End</dt>
          <dd>
            <DateTime seconds={c.endTimestamp} />
          </dd>
        </div>
        <div>
          <dt>Creator</dt>
          <dd>
            <AddressLink chain={c.distributionChain ?? c.chain} address={c.creatorAddress} />
          </dd>
        </div>
        <div>
          <dt>Compute status</dt>
          <dd>{c.campaignStatus?.status ?? '–'}</dd>
        </div>
        <div>
          <dt>APR</dt>
          <dd data-testid="campaign-apr-now">
            <PricedFigure value={c.apr} format={formatPercent} unpriced={c.unpricedRewardTokens} />
          </dd>
        </div>
        <div>
          <dt>Daily rewards</dt>
          <dd data-testid="campaign-daily-rewards-now">
            <PricedFigure value={c.dailyRewards} format={formatUsd} unpriced={c.unpricedRewardTokens} />
          </dd>
        </div>
        <div>
          <dt>Overrides</dt>
          <dd>{c.hasOverrides ? 'yes' : 'no'}</dd>
        </div>
      </dl>
      <h3>Parameters</h3>
      <ParamsTable params={c.params} type={c.type} chain={c.chain} />
      <h3>Linked campaigns</h3>
      <ul class="tree" data-testid="campaign-tree">
        {linked.map((l) => (
          <li
            key={l.campaignId}
            style={{ paddingLeft: `${(l.depth - minDepth) * 1.25}rem` }}
            aria-current={l.self ? 'true' : undefined}
          >
            {l.self ? (
              <strong>
                {l.type} <span class="mono">{shortId(l.onChainCampaignId)}</span> (this campaign)
              </strong>
            ) : (
              <Link to={{ ...state, campaign: l.campaignId }} navigate={navigate} openId={l.campaignId}>
                {l.type} <span class="mono">{shortId(l.onChainCampaignId)}</span>
              </Link>
            )}{' '}
            <CopyButton text={l.onChainCampaignId} what="campaign id" />{' '}
            <span class="muted">
              {l.depth < 0 ? 'parent' : l.depth > 0 ? 'sub-campaign' : ''} <DateTime seconds={l.startTimestamp} /> →{' '}
              <DateTime seconds={l.endTimestamp} />
            </span>
          </li>
        ))}
      </ul>
      <h3>Metrics</h3>
      <div class="history-controls">
        <button
          type="button"
          data-testid="campaign-metrics-csv"
          disabled={metrics.aprRecords.length + metrics.tvlRecords.length + metrics.dailyRewardsRecords.length === 0}
          onClick={() =>
            saveFile(new Blob([campaignMetricsCsv(metrics)], { type: 'text/csv' }), `campaign-${c.id}-metrics.csv`)
          }
        >
          Metrics CSV
        </button>
      </div>
      <div class="charts">
        <LineChart
          testId="campaign-apr"
          title="APR (%)"
          note="what this campaign's rewards paid per year on the opportunity's TVL, at each snapshot"
          marker={start}
          empty={empty}
          points={metrics.aprRecords.map((r) => ({ t: Number(r.timestamp), v: r.apr }))}
          formatValue={formatPercent}
        />
        <LineChart
          testId="campaign-tvl"
          title="TVL (USD)"
          note="value locked in the campaign's opportunity, at each snapshot"
          marker={start}
          empty={empty}
          points={metrics.tvlRecords.map((r) => ({ t: Number(r.timestamp), v: r.total }))}
          formatValue={formatUsd}
        />
        <LineChart
          testId="campaign-daily-rewards"
          title="Daily rewards (USD per day)"
          note="this campaign's rewards per day, valued at each snapshot's price"
          marker={start}
          empty={empty}
          points={metrics.dailyRewardsRecords.map((r) => ({ t: Number(r.timestamp), v: r.total }))}
          formatValue={formatUsd}
        />
      </div>
    </article>
  );
}
