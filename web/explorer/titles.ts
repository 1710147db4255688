import { useEffect } from 'preact/hooks';
import { plural } from '../shared/plural.js';
import type { ExplorerState, RangeMetric } from './state.js';
import type { Chain, Program, Protocol } from './types.js';

export const SITE_TITLE = 'Campaign rewards explorer';

const RANGES: { metric: RangeMetric; label: string; format: (v: string) => string }[] = [
  { metric: 'Tvl', label: 'TVL', format: (v) => `$${v}` },
  { metric: 'Apr', label: 'APR', format: (v) => `${v}%` },
  { metric: 'DailyRewards', label: 'daily rewards', format: (v) => `$${v}` },
];

const names = (ids: string | undefined, nameOf: (id: string) => string | undefined) =>
  (ids ?? '')
    .split(',')
    .filter(Boolean)
    .map((id) => nameOf(id) ?? id);

/**
 * Pure: the view's filter in a few words for the document title and the results' heading
 * ("LIVE · POOL, LEND · Ethereum · “eth” · APR ≥ 5%"); empty when nothing is filtered.
 */
export function filterSummary(
  state: ExplorerState,
  chains: readonly Pick<Chain, 'id' | 'name'>[],
  protocols: readonly Pick<Protocol, 'id' | 'name'>[],
  programs: readonly Pick<Program, 'slug' | 'name'>[] = [],
): string {
  const f = state.filters;
  const parts = [
    names(f.status, (s) => s),
    names(f.action, (a) => a),
    names(f.chainId, (id) => chains.find((c) => String(c.id) === id)?.name),
    names(f.mainProtocolId, (id) => protocols.find((p) => p.id === id)?.name),
    names(f.programSlugs, (slug) => programs.find((p) => p.slug === slug)?.name),
    names(f.tokenTypes, (t) => `${t} rewards`),
  ]
    .filter((list) => list.length)
    .map((list) => list.join(', '));
  if (f.search) parts.push(`“${f.search}”`);
  if (f.tokens) parts.push(`tokens ${f.tokens}`);
  for (const { metric, label, format } of RANGES) {
    const min = f[`minimum${metric}`];
    const max = f[`maximum${metric}`];
    if (min && max) parts.push(`${label} ${format(min)}–${format(max)}`);
    else if (min) parts.push(`${label} ≥ ${format(min)}`);
    else if (max) parts.push(`${label} ≤ ${format(max)}`);
  }
  return parts.join(' · ');
}

/** Pure: the search view's document title: count (once known), filter summary, page. */
export function searchTitle(
  state: ExplorerState,
  count: number | null,
  chains: readonly Pick<Chain, 'id' | 'name'>[],
  protocols: readonly Pick<Protocol, 'id' | 'name'>[],
  programs: readonly Pick<Program, 'slug' | 'name'>[] = [],
): string {
  const summary = filterSummary(state, chains, protocols, programs);
  const what = count === null ? 'Opportunities' : plural(count, 'opportunity', 'opportunities');
  const page = state.page > 0 ? ` (page ${state.page + 1})` : '';
  return `${what}${summary ? `: ${summary}` : ''}${page} – ${SITE_TITLE}`;
}

/** Sets document.title while the calling view shows (a screen reader announces the new page by it). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}
