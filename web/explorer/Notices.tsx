import type { FilterProblem } from './filterProblems.js';

/** Plain-words notices about the filter, each with a button that resets the filters it names. */
export function Notices({
  problems,
  kind,
  onReset,
  resetAll,
  testId,
}: {
  problems: FilterProblem[];
  kind: 'warning' | 'error';
  onReset: (keys: string[]) => void;
  /** One button for them all (values the view already ignores) instead of one per filter. */
  resetAll?: string;
  testId: string;
}) {
  if (!problems.length) return null;
  return (
    <div class={`filter-notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      <ul>
        {problems.map((p) => (
          <li key={p.keys.join()}>
            {p.message}{' '}
            {!resetAll && (
              <button type="button" class="link" onClick={() => onReset(p.keys)}>
                Reset {p.keys.length > 1 ? 'this range' : 'this filter'}
              </button>
            )}
          </li>
        ))}
      </ul>
      {resetAll && (
        <button type="button" class="link" onClick={() => onReset(problems.flatMap((p) => p.keys))}>
          {resetAll}
        </button>
      )}
    </div>
  );
}
