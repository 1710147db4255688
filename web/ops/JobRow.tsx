import { useState } from 'preact/hooks';
import { formatDurationMs } from '../shared/format.js';
import type { Job } from './types.js';

export type JobActions = {
  run(name: string): Promise<void>;
  setPaused(name: string, paused: boolean): Promise<void>;
  schedule(name: string, cron: string | null): Promise<void>;
};

/** Runs not started by the schedule are marked; the title says by what. */
const TRIGGER_TITLES: Record<string, string> = {
  manual: 'started by an operator (Run now)',
  cli: 'started from the command line (jobs:run)',
  backfill: 'started by a backfill',
};

const time = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : 'never');

/** One job: schedule (editable), state, lag per chain, recent runs, and its actions. */
export function JobRow({ job, actions, busy }: { job: Job; actions: JobActions; busy: boolean }) {
  const [cron, setCron] = useState(job.schedule);
  return (
    <article class="job" data-testid={`job-${job.name}`} data-state={job.state}>
      <header>
        <h2>
          {job.name}{' '}
          <span class={`badge ${job.state}`} data-testid="job-state">
            {job.state}
          </span>
        </h2>
        <p class="muted">{job.description}</p>
      </header>
      <dl class="facts">
        <div>
          <dt>Schedule</dt>
          <dd>
            <code>{job.schedule}</code> <span class="muted">({job.scheduleSource})</span>
          </dd>
        </div>
        <div>
          <dt>Last success</dt>
          <dd>{time(job.lastSuccessAt)}</dd>
        </div>
        <div>
          <dt>Errors 24 h</dt>
          <dd>
            {job.errors24h}/{job.runs24h} runs
          </dd>
        </div>
        {job.pausedAt && (
          <div>
            <dt>Paused since</dt>
            <dd>{time(job.pausedAt)}</dd>
          </div>
        )}
        {job.chains.map((c) => (
          <div key={c.chainId}>
            <dt>Chain {c.chainId}</dt>
            <dd>
              cursor {c.cursor ?? 'none yet'}, head {c.head ?? '?'}, lag {c.lagBlocks ?? '?'} blocks
              {c.consecutiveFailures > 0 && (
                <span class="error">
                  {' '}
                  · failing ({c.consecutiveFailures} in a row, backing off)
                  {c.lastRun?.error ? `: ${c.lastRun.error}` : ''}
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void actions.run(job.name)}>
          Run now
        </button>
        {job.state === 'paused' ? (
          <button type="button" disabled={busy} onClick={() => void actions.setPaused(job.name, false)}>
            Resume
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => void actions.setPaused(job.name, true)}>
            Pause
          </button>
        )}
        <form
          class="schedule"
          onSubmit={(e) => {
            e.preventDefault();
            void actions.schedule(job.name, cron);
          }}
        >
          <label class="field">
            <span>Cron</span>
            <input name="cron" value={cron} onInput={(e) => setCron((e.currentTarget as HTMLInputElement).value)} />
          </label>
          <button type="submit" disabled={busy}>
            Save schedule
          </button>
          <button
            type="button"
            disabled={busy || job.scheduleSource !== 'job_state'}
            onClick={() => void actions.schedule(job.name, null)}
          >
            Reset
          </button>
        </form>
      </div>
      <div class="table-scroll">
        <table class="runs">
          <caption>Recent runs</caption>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Duration
              </th>
              <th scope="col">Ranges</th>
              <th scope="col">Counts</th>
            </tr>
          </thead>
          <tbody>
            {job.recentRuns.map((r) => (
              <tr key={r.id}>
                <td data-label="Started">{time(r.startedAt)}</td>
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
                </td>
                <td data-label="Duration" class="num">
                  {formatDurationMs(r.durationMs)}
                </td>
                <td data-label="Ranges">{r.ranges.map((x) => `${x.chainId}: ${x.from}–${x.to}`).join(', ') || '–'}</td>
                <td data-label="Counts">
                  {Object.entries(r.counts)
                    .filter(([, n]) => n)
                    .map(([k, n]) => `${k} ${n}`)
                    .join(', ') || '–'}
                </td>
              </tr>
            ))}
            {job.recentRuns.length === 0 && (
              <tr>
                <td colSpan={5} class="muted">
                  No run yet
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </article>
  );
}
