import { formatTime } from '../shared/format.js';

/**
 * A moment as "2026-12-12 14:00 UTC" that never breaks inside its date or its time (a phone's width
 * broke it at the date's hyphen); a narrow column may put the time under the date.
 */
export function DateTime({ seconds }: { seconds: number | string | null | undefined }) {
  const n = Number(seconds);
  const known = seconds !== null && seconds !== undefined && seconds !== '' && Number.isFinite(n);
  const [date, ...time] = formatTime(seconds).split(' ');
  return (
    <time class="datetime" dateTime={known ? new Date(n * 1000).toISOString() : undefined}>
      <span class="nowrap">{date}</span>
      {time.length > 0 && (
        <>
          {' '}
          <span class="nowrap">{time.join(' ')}</span>
        </>
      )}
    </time>
  );
}
