import { apiGet } from '../shared/api.js';
import { formatAmount, formatPercent, formatTime, formatUsd } from '../shared/format.js';
import { LineChart } from '../shared/LineChart.js';
import { useApi } from '../shared/useApi.js';
import { campaignStatusAt } from './history.js';
import { Link } from './Link.js';
import { chainName, type DetailProps } from './OpportunityDetail.js';
import type { Campaign, CampaignMetrics, LinkedCampaign } from './types.js';

type Loaded = { campaign: Campaign; linked: LinkedCampaign[]; metrics: CampaignMetrics };

async function loadCampaign(id: string, signal: AbortSignal): Promise<Loaded> {
  const path = `/v4/campaigns/${encodeURIComponent(id)}`;
  const [campaign, linked, metrics] = await Promise.all([
    apiGet<Campaign>(path, {}, { signal }),
    apiGet<LinkedCampaign[]>(`${path}/linked`, {}, { signal }),
    apiGet<CampaignMetrics>(`${path}/metrics`, {}, { signal }),
  ]);
  return { campaign, linked, metrics };
}

/** Simple parameters shown as rows; nested or long values as JSON. */
function paramValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 77)}…` : value || '–';
  return JSON.stringify(value);
}

/** One campaign: parameters, status, the parent/sub-campaign tree and its metrics. */
export function CampaignDetail({ state, navigate, chains }: DetailProps) {
  const id = state.campaign!;
  const { data, error } = useApi(id, (signal) => loadCampaign(id, signal));
  const back = { ...state, campaign: undefined };
  if (error)
    return (
      <section>
        <Link to={back} navigate={navigate}>
          ← Back to the list
        </Link>
        <p class="error" role="alert">
          {error.message}
        </p>
      </section>
    );
  if (!data) return <p aria-busy="true">Loading…</p>;
  const { campaign: c, linked, metrics } = data;
  const status = campaignStatusAt(Number(c.startTimestamp), Number(c.endTimestamp), Date.now() / 1000);
  const minDepth = Math.min(0, ...linked.map((l) => l.depth));
  const start = { t: Number(c.startTimestamp), label: 'campaign starts' };
  return (
    <article class="detail" data-testid="campaign-detail">
      <Link to={back} navigate={navigate}>
        ← Back to the list
      </Link>
      <h2>
        Campaign <span class="mono">{c.campaignId.slice(0, 18)}…</span>{' '}
        <span class={`badge ${status.toLowerCase()}`}>{status}</span>
      </h2>
      <p>
        <Link to={{ ...state, campaign: undefined, opportunity: c.opportunityId }} navigate={navigate}>
          Opportunity of this campaign
        </Link>
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
            {formatAmount(c.amount, c.rewardToken.decimals)} {c.rewardToken.symbol}
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
          <dd>{formatTime(c.startTimestamp)}</dd>
        </div>
        <div>
          <dt>End</dt>
          <dd>{formatTime(c.endTimestamp)}</dd>
        </div>
        <div>
          <dt>Creator</dt>
          <dd class="mono">{c.creatorAddress}</dd>
        </div>
        <div>
          <dt>Compute status</dt>
          <dd>{c.campaignStatus?.status ?? '–'}</dd>
        </div>
        <div>
          <dt>APR</dt>
          <dd>{formatPercent(c.apr)}</dd>
        </div>
        <div>
          <dt>Daily rewards</dt>
          <dd>{formatUsd(c.dailyRewards)}</dd>
        </div>
        <div>
          <dt>Overrides</dt>
          <dd>{c.hasOverrides ? 'yes' : 'no'}</dd>
        </div>
      </dl>
      <h3>Parameters</h3>
      <table class="params">
        <tbody>
          {Object.entries(c.params ?? {}).map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td class="mono">{paramValue(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Linked campaigns</h3>
      <ul class="tree" data-testid="campaign-tree">
        {linked.map((l) => (
          <li
            key={l.campaignId}
            style={{ paddingLeft: `${(l.depth - minDepth) * 1.25}rem` }}
            aria-current={l.self ? 'true' : undefined}
          >
            {l.self ? (
              <strong class="mono">{l.onChainCampaignId.slice(0, 10)}… (this campaign)</strong>
            ) : (
              <Link to={{ ...state, campaign: l.campaignId }} navigate={navigate}>
                <span class="mono">{l.onChainCampaignId.slice(0, 10)}…</span>
              </Link>
            )}{' '}
            <span class="muted">
              {l.depth < 0 ? 'parent' : l.depth > 0 ? 'sub-campaign' : ''} {formatTime(l.startTimestamp)} →{' '}
              {formatTime(l.endTimestamp)}
            </span>
          </li>
        ))}
      </ul>
      <h3>Metrics</h3>
      <div class="charts">
        <LineChart
          testId="campaign-apr"
          title="APR (%)"
          note="the campaign's APR records (/campaigns/{id}/metrics)"
          marker={start}
          points={metrics.aprRecords.map((r) => ({ t: Number(r.timestamp), v: r.apr }))}
          formatValue={formatPercent}
        />
        <LineChart
          testId="campaign-tvl"
          title="TVL (USD)"
          note="the campaign's TVL records"
          marker={start}
          points={metrics.tvlRecords.map((r) => ({ t: Number(r.timestamp), v: r.total }))}
          formatValue={formatUsd}
        />
        <LineChart
          testId="campaign-daily-rewards"
          title="Daily rewards (USD per day)"
          note="the campaign's daily-rewards records, as the API serves them"
          marker={start}
          points={metrics.dailyRewardsRecords.map((r) => ({ t: Number(r.timestamp), v: r.total }))}
          formatValue={formatUsd}
        />
      </div>
    </article>
  );
}
