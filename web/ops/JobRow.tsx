import { useState } from 'preact/hooks';
import { formatDurationMs } from '../shared/format.js';
import { JobChains } from './JobChains.js';
import { RecentRuns } from './RecentRuns.js';
import { relative, scheduleSourceText, span, time, upcoming } from './time.js';
import type { ActionResult, Job } from './types.js';

export type JobActions = {
  run(name: string): Promise<void>;
  setPaused(name: string, paused: boolean): Promise<void>;
  schedule(name: string, cron: string | null): Promise<void>;
};

const ATTENTION_LABELS: Record<Job['attention']['status'], string> = {
  failing: 'failing',
  lagging: 'lagging',
  paused: 'paused',
  'not-configured': 'not configured',
  'never-run': 'never run',
  ok: 'ok',
};

/**
 * One job: what needs attention and why, schedule with next run, last run and its result, lag per
 * chain, its actions with the result of the last one beside them, and its recent runs (folded).
 */
export function JobRow({
  job,
  actions,
  busy,
  result,
}: {
  job: Job;
  actions: JobActions;
  busy: boolean;
  result: ActionResult | undefined;
}) {
  const [cron, setCron] = useState(job.schedule);
  const { status, reasons } = job.attention;
  return (
    <article
      class={`job attention-${status}`}
      id={`job-${job.name}`}
      data-testid={`job-${job.name}`}
      data-state={job.state}
      data-attention={status}
    >
      <header>
        <h2>
          {job.name}{' '}
          <span class={`badge ${status}`} data-testid="job-attention">
            {ATTENTION_LABELS[status]}
          </span>
          {job.state === 'paused' && status !== 'paused' && (
            <>
              {' '}
              <span class="badge paused" data-testid="job-state">
                paused
              </span>
            </>
          )}
        </h2>
        {(status === 'failing' || status === 'lagging' || status === 'not-configured') && (
          <ul class={`reasons ${status === 'not-configured' ? 'muted' : 'error'}`} data-testid="job-reasons">
            {reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        )}
        <p class="muted">{job.description}</p>
      </header>
      <dl class="facts">
        <div>
          <dt>Schedule</dt>
          <dd>
            <code>{job.schedule}</code>{' '}
            <span class="muted" data-testid="job-schedule-source">
              ({scheduleSourceText(job.scheduleSource, job.name)})
            </span>
          </dd>
        </div>
        <div>
          <dt>Next run</dt>
          <dd data-testid="job-next-run">
            {job.nextRunAt ? (
              <time dateTime={job.nextRunAt} title={time(job.nextRunAt)}>
                {upcoming(job.nextRunAt)}
              </time>
            ) : (
              `none while paused${job.pausedAt ? ` (since ${time(job.pausedAt)})` : ''}`
            )}
          </dd>
        </div>
        <div>
          <dt>Last run</dt>
          <dd data-testid="job-last-run">
            {job.lastRun ? (
              <>
                <span class={`badge ${job.lastRun.status}`}>{job.lastRun.status}</span>{' '}
                <time dateTime={job.lastRun.startedAt} title={time(job.lastRun.startedAt)}>
                  {relative(job.lastRun.startedAt)}
                </time>
                {job.lastRun.durationMs !== null && `, ${formatDurationMs(job.lastRun.durationMs)}`}
                {job.lastRun.skipReason && (
                  <div class="skip-reason" data-testid="job-skip-reason">
                    {job.lastRun.skipReason}
                  </div>
                )}
              </>
            ) : (
              'never'
            )}
          </dd>
        </div>
        <div>
          <dt>Last success</dt>
          <dd>
            {job.lastSuccessAt === null ? (
              'never'
            ) : (
              <span title={time(job.lastSuccessAt)}>{span(job.sinceLastSuccessSeconds ?? 0)} ago</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Errors 24 h</dt>
          <dd>
            {job.errors24h}/{job.runs24h} runs
          </dd>
        </div>
        {!job.blockCursor && (
          <div>
            <dt>Lag</dt>
            <dd data-testid="job-lag-note">{job.lagNote}</dd>
          </div>
        )}
      </dl>
      <JobChains job={job} />
      <div class="actions" data-testid="job-actions">
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
        {/* Folded: changing a schedule is rare, and the open form would double each job's height on a phone. */}
        <details class="schedule-editor">
          <summary>Change schedule</summary>
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
        </details>
        {/* The outcome of this job's last action, where the operator's eyes are (not at the top of the page). */}
        <p class={`action-result ${result?.error ? 'error' : 'notice'}`} role="status" data-testid="action-result">
          {result?.text ?? ''}
        </p>
      </div>
      <RecentRuns runs={job.recentRuns} />
    </article>
  );
}
