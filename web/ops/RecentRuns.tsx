import { formatDurationMs } from '../shared/format.js';
import { time } from './time.js';
import type { JobRun } from './types.js';

/** Runs not started by the schedule are marked; the title says by what. */
const TRIGGER_TITLES: Record<string, string> = {
  manual: 'started by an operator (Run now)',
  cli: 'started from the command line (jobs:run)',
  backfill: 'started by a backfill',
};

/** A job's recent runs, folded (the latest run is in the job's facts): chain, status, trigger, duration, ranges, counts. */
export function RecentRuns({ runs }: { runs: JobRun[] }) {
  return (
    <details class="recent-runs">
      <summary>Recent runs ({runs.length})</summary>
      <div class="table-scroll">
        <table class="runs">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Chain</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Duration
              </th>
              <th scope="col">Ranges</th>
              <th scope="col">Counts</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr key={r.id}>
                <td data-label="Started">{time(r.startedAt)}</td>
                <td data-label="Chain" data-testid="run-chain">
                  {r.chainId === null ? 'all' : r.chainId}
                </td>
                <td data-label="Status">
                  <span class={`badge ${r.status}`}>{r.status}</span>
                  {r.trigger && r.trigger !== 'schedule' && (
                    <>
                      {' '}
                      <span
                        class={`badge trigger ${r.trigger}`}
                        data-testid="run-trigger"
                        title={TRIGGER_TITLES[r.trigger] ?? r.trigger}
                      >
                        {r.trigger}
                      </span>
                    </>
                  )}
                  {r.error && <div class="error run-error">{r.error}</div>}
                  {r.skipReason && <div class="skip-reason">{r.skipReason}</div>}
                </td>
                <td data-label="Duration" class="num">
                  {formatDurationMs(r.durationMs)}
                </td>
                <td data-label="Ranges">
                  {r.ranges.length
                    ? r.ranges.map((x, i) => (
                        // A range never breaks inside ("0–139"); the list wraps between ranges.
                        <span className="nowrap" key={`${x.chainId}:${x.from}`}>
                          {i ? ', ' : ''}
                          {`${x.chainId}: ${x.from}–${x.to}`}
                        </span>
                      ))
                    : '–'}
                </td>
                <td data-label="Counts">
                  {Object.entries(r.counts)
                    .filter(([, n]) => n)
                    .map(([k, n]) => `${k} ${n}`)
                    .join(', ') || '–'}
                </td>
              </tr>
            ))}
            {runs.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  No run yet
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </details>
  );
}
