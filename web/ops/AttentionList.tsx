import type { AttentionItem } from './types.js';

/** Where an item's details are: its dependency's row, its job's card, or the health view (public, no token). */
function href(item: AttentionItem): string {
  if (item.kind === 'dependency') return `#dep-${item.subject.replace(':', '-')}`;
  if (item.subject.startsWith('job:')) return `#job-${item.subject.slice(4)}`;
  return '/v4/health';
}

/**
 * What needs an operator, first thing on the page, as the API computes it (api/reads/attention.ts,
 * from the same facts as /v4/health and the job cards): unreachable dependencies, what degrades
 * health, then failing, lagging and paused jobs, each linking to its details; or a line saying all is
 * well, which the API's list being empty means and nothing else.
 */
export function AttentionList({ items }: { items: AttentionItem[] }) {
  return (
    <section class="ops-section attention" aria-labelledby="attention-title" data-testid="ops-attention">
      <h2 id="attention-title">Needs attention</h2>
      {items.length === 0 ? (
        <p class="notice" data-testid="attention-none">
          Nothing: every dependency answers, health is ok, and no job is failing, lagging or paused.
        </p>
      ) : (
        <ul>
          {items.map((i) => (
            <li key={`${i.kind}:${i.subject}:${i.text}`} data-testid="attention-item" data-kind={i.kind}>
              <a href={href(i)}>{i.text}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
