import { span } from './time.js';
import type { Job, JobChain } from './types.js';

/** Pure: a chain's lag as one phrase: blocks and seconds behind the head, or why there is none. */
export function chainLag(job: Pick<Job, 'blockCursor'>, c: JobChain): string {
  if (!job.blockCursor) return c.lagSeconds === null ? 'no success yet' : `last success ${span(c.lagSeconds)} ago`;
  if (c.lagBlocks === null) return `unknown: ${c.lagNote}`;
  return `${c.lagBlocks} block${c.lagBlocks === 1 ? '' : 's'}${c.lagSeconds === null ? '' : ` · ${span(c.lagSeconds)}`}`;
}

/** Per chain: position (cursor, head), lag in blocks and seconds, and a failing unit's error. */
export function JobChains({ job }: { job: Job }) {
  if (job.chains.length === 0) return null;
  return (
    <div class="table-scroll">
      <table class="chains">
        <thead>
          <tr>
            <th scope="col">Chain</th>
            {job.blockCursor && (
              <>
                <th scope="col" class="num">
                  Cursor
                </th>
                <th scope="col" class="num">
                  Head
                </th>
              </>
            )}
            <th scope="col">{job.blockCursor ? 'Lag' : 'Data age'}</th>
          </tr>
        </thead>
        <tbody>
          {job.chains.map((c) => (
            <tr key={c.chainId} data-testid={`chain-${c.chainId}`}>
              <th scope="row" data-label="Chain">
                {c.chainId}
              </th>
              {job.blockCursor && (
                <>
                  <td data-label="Cursor" class="num">
                    {c.cursor ?? 'none yet'}
                  </td>
                  <td data-label="Head" class="num">
                    {c.head ?? '?'}
                  </td>
                </>
              )}
              <td data-label={job.blockCursor ? 'Lag' : 'Data age'} data-testid="chain-lag">
                {chainLag(job, c)}
                {c.consecutiveFailures > 0 && (
                  <div class="error">
                    failing: {c.consecutiveFailures} in a row, backing off
                    {c.lastRun?.error ? ` (${c.lastRun.error})` : ''}
                    {c.lastRun?.skipReason ? ` (${c.lastRun.skipReason})` : ''}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
