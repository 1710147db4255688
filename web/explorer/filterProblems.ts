import {
  isValidListValue,
  LIST_FILTER_KEYS,
  PAGE_SIZES,
  RANGE_FILTER_KEYS,
  SORTS,
  GRAINS,
  type ExplorerState,
  type FilterKey,
} from './state.js';

/** A filter of the address (or a field the API refused) in plain words, with the keys that reset it. */
export type FilterProblem = { keys: string[]; message: string };

/** Plain names of the URL keys, as the filter panel labels them. */
export const FILTER_LABELS: Record<string, string> = {
  chainId: 'Chains',
  action: 'Actions',
  status: 'Status',
  mainProtocolId: 'Protocols',
  programSlugs: 'Programs',
  tokenTypes: 'Reward token types',
  search: 'Search',
  tokens: 'Tokens',
  minimumTvl: 'Minimum TVL',
  maximumTvl: 'Maximum TVL',
  minimumApr: 'Minimum APR',
  maximumApr: 'Maximum APR',
  minimumDailyRewards: 'Minimum daily rewards',
  maximumDailyRewards: 'Maximum daily rewards',
  sort: 'Sort by',
  order: 'Order',
  page: 'Page',
  items: 'Per page',
  grain: 'Grain',
};

const quote = (v: string) => `“${v.length > 40 ? `${v.slice(0, 37)}…` : v}”`;

/**
 * Pure: what parseState ignored in an address query, in plain words: values that are not numbers,
 * unknown chains ids, actions, statuses or token types, unknown sort orders, pages and sizes. The
 * view shows them with a button that removes them from the address.
 */
export function filterProblems(search: string): FilterProblem[] {
  const q = new URLSearchParams(search);
  const problems: FilterProblem[] = [];
  for (const key of RANGE_FILTER_KEYS) {
    const v = q.get(key)?.trim();
    if (v && !Number.isFinite(Number(v)))
      problems.push({ keys: [key], message: `${FILTER_LABELS[key]} ${quote(v)} is not a number, so it was ignored.` });
  }
  for (const key of LIST_FILTER_KEYS) {
    const bad = (q.get(key) ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v && !isValidListValue(key, v));
    if (!bad.length) continue;
    const what =
      key === 'chainId'
        ? 'is not a chain id (a whole number)'
        : `is not one of the ${FILTER_LABELS[key]!.toLowerCase()} the explorer knows`;
    problems.push({
      keys: [key],
      message: `${FILTER_LABELS[key]}: ${bad.map(quote).join(', ')} ${what}, so ${bad.length > 1 ? 'they were' : 'it was'} ignored.`,
    });
  }
  const oneOf = (key: string, values: readonly string[]) => {
    const v = q.get(key);
    if (v !== null && !values.includes(v))
      problems.push({
        keys: [key],
        message: `${FILTER_LABELS[key]} ${quote(v)} is not a choice of the explorer, so the default is used.`,
      });
  };
  oneOf('sort', SORTS);
  oneOf('order', ['asc', 'desc']);
  oneOf('items', PAGE_SIZES.map(String));
  oneOf('grain', GRAINS);
  const page = q.get('page');
  if (page !== null && !/^\d{1,7}$/.test(page))
    problems.push({ keys: ['page'], message: `Page ${quote(page)} is not a page number, so the first page is shown.` });
  return problems;
}

type Metric = 'Tvl' | 'Apr' | 'DailyRewards';
const METRIC_LABELS: Record<Metric, string> = { Tvl: 'TVL', Apr: 'APR', DailyRewards: 'daily rewards' };

/** Pure: ranges whose minimum is above their maximum (nothing can match them), in plain words. */
export function rangeProblems(state: ExplorerState): (FilterProblem & { metric: Metric })[] {
  const out: (FilterProblem & { metric: Metric })[] = [];
  for (const metric of ['Tvl', 'Apr', 'DailyRewards'] as const) {
    const min = state.filters[`minimum${metric}` as FilterKey];
    const max = state.filters[`maximum${metric}` as FilterKey];
    if (min !== undefined && max !== undefined && Number(min) > Number(max)) {
      out.push({
        metric,
        keys: [`minimum${metric}`, `maximum${metric}`],
        message: `The minimum ${METRIC_LABELS[metric]} (${min}) is above the maximum (${max}): no opportunity can match.`,
      });
    }
  }
  return out;
}

/** Pure: a 400 answer's field errors in plain words (the API names the query parameter it refused). */
export function apiFieldProblems(errors: readonly { field: string; message: string }[]): FilterProblem[] {
  return errors.map((e) => {
    const key =
      e.field
        .replace(/^(query|params|body)[./]?/, '')
        .replace(/^\//, '')
        .split(/[./[]/)[0] ?? e.field;
    const label = FILTER_LABELS[key] ?? key;
    return { keys: [key], message: `The ${label} filter has a value the service does not accept.` };
  });
}
