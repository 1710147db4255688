import type { FilterProblem } from './filterProblems.js';

/** Plain-words notices about the filter, each with a button that resets the filters it names. */
export function Notices({ problems, kind, onReset, resetLabel = 'Reset', testId }: { problems: FilterProblem[]; kind: 'warning' | 'error'; onReset: (keys: string[]) => void; resetLabel?: string; testId: string }) {
  if (!problems.length) return null;
  return (
    <div class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      <ul>
        {problems.map((p) => (
          <li key={p.keys.join()}>
            {p.message} <button type="button" class="link" onClick={() => onReset(p.keys)}>{resetLabel} {p.keys.length > 1 ? 'this range' : 'this filter'}</button>
          </li>
        ))}
      </ul>
    </div>
  );
}
