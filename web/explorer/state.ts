/**
 * The explorer's whole state lives in the URL query (shareable, reloadable). Filter keys are the
 * API's own OPP-FILTERS names, so a view's filter is sent to the API as it stands.
 */
export const LIST_FILTER_KEYS = [
  'chainId',
  'action',
  'status',
  'mainProtocolId',
  'programSlugs',
  'tokenTypes',
] as const;
export const TEXT_FILTER_KEYS = ['search', 'tokens'] as const;
export const RANGE_FILTER_KEYS = [
  'minimumTvl',
  'maximumTvl',
  'minimumApr',
  'maximumApr',
  'minimumDailyRewards',
  'maximumDailyRewards',
] as const;
export const FILTER_KEYS = [...LIST_FILTER_KEYS, ...TEXT_FILTER_KEYS, ...RANGE_FILTER_KEYS] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export const SORTS = [
  'lastCampaignCreatedAt',
  'apr',
  'tvl',
  'rewards',
  'earliestCampaignStart',
  'latestCampaignEnd',
] as const;
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const GRAINS = ['hour', 'day', 'week', 'month'] as const;
export type Grain = (typeof GRAINS)[number];
/** What the analytics view stacks its monthly bars by (the API's `/by-chains` or `/by-protocols`). */
export const STACKS = ['chain', 'protocol'] as const;
export type Stack = (typeof STACKS)[number];

export type ExplorerState = {
  filters: Partial<Record<FilterKey, string>>;
  sort: (typeof SORTS)[number];
  order: 'asc' | 'desc';
  page: number;
  items: number;
  /** Detail views: an opportunity or a campaign id (at most one), with the history grain. */
  opportunity?: string;
  campaign?: string;
  grain: Grain;
  /** The analytics view (`?view=analytics`), stacked by chain unless `stack` says protocol. */
  view?: 'analytics';
  stack?: 'protocol';
};

export const DEFAULT_STATE: ExplorerState = {
  filters: {},
  sort: 'lastCampaignCreatedAt',
  order: 'desc',
  page: 0,
  items: 20,
  grain: 'day',
};

/** Values each list filter accepts (the API's OPP-FILTERS enums; chain ids are whole numbers). */
export const LIST_FILTER_VALUES: Partial<Record<(typeof LIST_FILTER_KEYS)[number], readonly string[]>> = {
  action: ['POOL', 'HOLD', 'LEND', 'BORROW', 'DROP', 'LONG', 'SHORT', 'SWAP', 'STAKE', 'INVALID'],
  status: ['LIVE', 'SOON', 'PAST'],
  tokenTypes: ['TOKEN', 'PRETGE', 'POINT'],
};

/** Pure: whether one value of a comma-list filter is one the API accepts. */
export function isValidListValue(key: (typeof LIST_FILTER_KEYS)[number], value: string): boolean {
  if (key === 'chainId') return /^\d{1,10}$/.test(value) && Number(value) <= 2147483647;
  const allowed = LIST_FILTER_VALUES[key];
  return allowed ? allowed.includes(value) : value.length > 0;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : fallback;
const nonNegativeInt = (value: string | null, fallback: number) =>
  value !== null && /^\d{1,7}$/.test(value) ? Number(value) : fallback;

/** Pure: URL query → state; unknown or malformed values fall back to the defaults. */
export function parseState(search: string): ExplorerState {
  const q = new URLSearchParams(search);
  const filters: ExplorerState['filters'] = {};
  for (const key of FILTER_KEYS) {
    const value = q.get(key)?.trim();
    if (!value) continue;
    if ((RANGE_FILTER_KEYS as readonly string[]).includes(key) && !Number.isFinite(Number(value))) continue;
    if ((LIST_FILTER_KEYS as readonly string[]).includes(key)) {
      const valid = value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => isValidListValue(key as (typeof LIST_FILTER_KEYS)[number], v));
      if (valid.length) filters[key] = valid.join(',');
      continue;
    }
    filters[key] = value;
  }
  const items = nonNegativeInt(q.get('items'), DEFAULT_STATE.items);
  return {
    filters,
    sort: oneOf(SORTS, q.get('sort'), DEFAULT_STATE.sort),
    order: oneOf(['asc', 'desc'] as const, q.get('order'), DEFAULT_STATE.order),
    page: nonNegativeInt(q.get('page'), 0),
    items: (PAGE_SIZES as readonly number[]).includes(items) ? items : DEFAULT_STATE.items,
    ...(q.get('opportunity')
      ? { opportunity: q.get('opportunity')! }
      : q.get('campaign')
        ? { campaign: q.get('campaign')! }
        : {}),
    grain: oneOf(GRAINS, q.get('grain'), DEFAULT_STATE.grain),
    ...(q.get('view') === 'analytics' ? { view: 'analytics' as const } : {}),
    ...(q.get('stack') === 'protocol' ? { stack: 'protocol' as const } : {}),
  };
}

/** Pure: state → URL query (defaults left out, keys in a stable order), e.g. `?chainId=1&sort=apr`. */
export function toSearch(state: ExplorerState): string {
  const q = new URLSearchParams();
  for (const key of FILTER_KEYS) if (state.filters[key]) q.set(key, state.filters[key]!);
  if (state.sort !== DEFAULT_STATE.sort) q.set('sort', state.sort);
  if (state.order !== DEFAULT_STATE.order) q.set('order', state.order);
  if (state.page) q.set('page', String(state.page));
  if (state.items !== DEFAULT_STATE.items) q.set('items', String(state.items));
  if (state.opportunity) q.set('opportunity', state.opportunity);
  else if (state.campaign) q.set('campaign', state.campaign);
  if (state.grain !== DEFAULT_STATE.grain) q.set('grain', state.grain);
  if (state.view) q.set('view', state.view);
  if (state.stack) q.set('stack', state.stack);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Pure: the OPP-FILTERS query of the current filter (bins, aggregates, count). */
export function filterQuery(state: ExplorerState): Record<string, string> {
  return Object.fromEntries(Object.entries(state.filters).filter(([, v]) => v)) as Record<string, string>;
}

/** Pure: the list query (filter + sort, order, page, items). */
export function listQuery(state: ExplorerState): Record<string, string | number> {
  return { ...filterQuery(state), sort: state.sort, order: state.order, page: state.page, items: state.items };
}

/** Pure: a filter change; any change of the filter goes back to the first page. */
export function withFilters(
  state: ExplorerState,
  changes: Partial<Record<FilterKey, string | undefined>>,
): ExplorerState {
  const filters = { ...state.filters };
  for (const [key, value] of Object.entries(changes) as [FilterKey, string | undefined][]) {
    if (value === undefined || value.trim() === '') delete filters[key];
    else filters[key] = value.trim();
  }
  return { ...state, filters, page: 0 };
}

/** Pure: toggles one value of a comma-list filter (`chainId=1,10` ± 10). */
export function toggleListValue(
  state: ExplorerState,
  key: (typeof LIST_FILTER_KEYS)[number],
  value: string,
): ExplorerState {
  const current = (state.filters[key] ?? '').split(',').filter(Boolean);
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  return withFilters(state, { [key]: next.join(',') || undefined });
}

/** Pure: the state after activating a column's sort: the same column flips its order, another starts highest first. */
export function sortedBy(state: ExplorerState, sort: ExplorerState['sort']): ExplorerState {
  const order = state.sort === sort ? (state.order === 'desc' ? 'asc' : 'desc') : 'desc';
  return { ...state, sort, order, page: 0 };
}

export type Bin = { min: number; max: number; count: number };
export type RangeMetric = 'Tvl' | 'Apr' | 'DailyRewards';

/**
 * Pure: the range filter narrowed to one histogram bar. The API's first bin is open below and its
 * last open above (README of /opportunities), so those keep that side as the current filter has it.
 */
export function narrowToBin(
  state: ExplorerState,
  metric: RangeMetric,
  bins: readonly Bin[],
  index: number,
): ExplorerState {
  const bin = bins[index]!;
  return withFilters(state, {
    [`minimum${metric}`]: index === 0 ? state.filters[`minimum${metric}`] : String(bin.min),
    [`maximum${metric}`]: index === bins.length - 1 ? state.filters[`maximum${metric}`] : String(bin.max),
  });
}
