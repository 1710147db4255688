import type { Dependencies, Job } from './types.js';

/**
 * What needs an operator, first thing on the page: unreachable dependencies (they explain failing
 * jobs), then failing jobs, then lagging ones, each linking to its row; or a line saying all is well.
 */
export function AttentionList({ jobs, dependencies }: { jobs: Job[]; dependencies: Dependencies | null }) {
  const items = [
    ...(dependencies?.attention ?? []).map((a) => ({
      key: `dep:${a.dependency}`,
      href: `#dep-${a.dependency.replace(':', '-')}`,
      label: a.reason,
      kind: 'dependency',
    })),
    ...(['failing', 'lagging'] as const).flatMap((status) =>
      jobs
        .filter((j) => j.attention.status === status)
        .map((j) => ({
          key: `job:${j.name}`,
          href: `#job-${j.name}`,
          label: `${j.name} ${status}: ${j.attention.reasons.join('; ')}`,
          kind: status,
        })),
    ),
  ];
  return (
    <section class="ops-section attention" aria-labelledby="attention-title" data-testid="ops-attention">
      <h2 id="attention-title">Needs attention</h2>
      {items.length === 0 ? (
        <p class="notice" data-testid="attention-none">
          Nothing: every dependency answers and every job runs on schedule.
        </p>
      ) : (
        <ul>
          {items.map((i) => (
            <li key={i.key} data-testid="attention-item" data-kind={i.kind}>
              <a href={i.href}>{i.label}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
