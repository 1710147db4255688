import { SearchField } from './SearchField.js';
import { PAGE_SIZES, SORTS, toggleListValue, withFilters, type ExplorerState } from './state.js';
import type { Chain, Program, Protocol } from './types.js';

const ACTIONS = ['POOL', 'HOLD', 'LEND', 'BORROW', 'DROP', 'LONG', 'SHORT', 'SWAP', 'STAKE'];
const STATUSES = ['LIVE', 'SOON', 'PAST'];
const TOKEN_TYPES = ['TOKEN', 'PRETGE', 'POINT'];
const SORT_LABELS: Record<(typeof SORTS)[number], string> = {
  lastCampaignCreatedAt: 'Newest campaign',
  apr: 'APR',
  tvl: 'TVL',
  rewards: 'Daily rewards',
  earliestCampaignStart: 'Earliest start',
  latestCampaignEnd: 'Latest end',
};

export type FiltersProps = {
  state: ExplorerState;
  chains: Chain[];
  protocols: Protocol[];
  /** Programs (GET /v4/programs): the `programSlugs` filter, shown when there is one. */
  programs?: Program[];
  onChange: (next: ExplorerState) => void;
};

function CheckGroup({
  legend,
  name,
  options,
  state,
  onChange,
}: {
  legend: string;
  name: 'chainId' | 'action' | 'status' | 'tokenTypes' | 'mainProtocolId' | 'programSlugs';
  options: { value: string; label: string }[];
  state: ExplorerState;
  onChange: FiltersProps['onChange'];
}) {
  const selected = (state.filters[name] ?? '').split(',');
  return (
    <fieldset class="checks" data-testid={`filter-${name}`}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value}>
          <input
            type="checkbox"
            name={name}
            value={o.value}
            checked={selected.includes(o.value)}
            onChange={() => onChange(toggleListValue(state, name, o.value))}
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

function Range({
  label,
  metric,
  state,
  onChange,
}: {
  label: string;
  metric: 'Tvl' | 'Apr' | 'DailyRewards';
  state: ExplorerState;
  onChange: FiltersProps['onChange'];
}) {
  return (
    <fieldset class="range">
      <legend>{label}</legend>
      {(['minimum', 'maximum'] as const).map((bound) => {
        const name = `${bound}${metric}` as const;
        return (
          <SearchField
            key={name}
            label={bound === 'minimum' ? 'min' : 'max'}
            name={name}
            type="number"
            value={state.filters[name] ?? ''}
            onApply={(v) => onChange(withFilters(state, { [name]: v }))}
          />
        );
      })}
    </fieldset>
  );
}

/** The main OPP-FILTERS as controls, plus sort, order and page size; every change goes to the URL. */
export function Filters({ state, chains, protocols, programs = [], onChange }: FiltersProps) {
  const hasFilter = Object.keys(state.filters).length > 0;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a form with role="search" is the landmark every screen reader knows; the newer <search> element is not announced by all of them yet
    <form class="filters" role="search" aria-label="Opportunity filters" onSubmit={(e) => e.preventDefault()}>
      <SearchField
        label="Search"
        name="search"
        value={state.filters.search ?? ''}
        onApply={(v) => onChange(withFilters(state, { search: v }))}
      />
      <SearchField
        label="Tokens (symbols, comma-separated)"
        name="tokens"
        value={state.filters.tokens ?? ''}
        onApply={(v) => onChange(withFilters(state, { tokens: v }))}
      />
      <CheckGroup
        legend="Chains"
        name="chainId"
        options={chains.map((c) => ({ value: String(c.id), label: c.name }))}
        state={state}
        onChange={onChange}
      />
      <CheckGroup
        legend="Actions"
        name="action"
        options={ACTIONS.map((a) => ({ value: a, label: a.toLowerCase() }))}
        state={state}
        onChange={onChange}
      />
      <CheckGroup
        legend="Status"
        name="status"
        options={STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))}
        state={state}
        onChange={onChange}
      />
      <CheckGroup
        legend="Protocols"
        name="mainProtocolId"
        options={protocols.map((p) => ({ value: p.id, label: p.name }))}
        state={state}
        onChange={onChange}
      />
      {programs.length > 0 && (
        <CheckGroup
          legend="Programs"
          name="programSlugs"
          options={programs.map((p) => ({ value: p.slug, label: p.name }))}
          state={state}
          onChange={onChange}
        />
      )}
      <CheckGroup
        legend="Reward token types"
        name="tokenTypes"
        options={TOKEN_TYPES.map((t) => ({ value: t, label: t.toLowerCase() }))}
        state={state}
        onChange={onChange}
      />
      <Range label="TVL (USD)" metric="Tvl" state={state} onChange={onChange} />
      <Range label="APR (%)" metric="Apr" state={state} onChange={onChange} />
      <Range label="Daily rewards (USD)" metric="DailyRewards" state={state} onChange={onChange} />
      <fieldset class="sorting">
        <legend>Order</legend>
        <label class="field">
          <span>Sort by</span>
          <select
            name="sort"
            value={state.sort}
            onChange={(e) =>
              onChange({
                ...state,
                sort: (e.currentTarget as HTMLSelectElement).value as ExplorerState['sort'],
                page: 0,
              })
            }
          >
            {SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>Order</span>
          <select
            name="order"
            value={state.order}
            onChange={(e) =>
              onChange({ ...state, order: (e.currentTarget as HTMLSelectElement).value as 'asc' | 'desc', page: 0 })
            }
          >
            <option value="desc">descending</option>
            <option value="asc">ascending</option>
          </select>
        </label>
        <label class="field">
          <span>Per page</span>
          <select
            name="items"
            value={String(state.items)}
            onChange={(e) =>
              onChange({ ...state, items: Number((e.currentTarget as HTMLSelectElement).value), page: 0 })
            }
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </fieldset>
      <button type="button" disabled={!hasFilter} onClick={() => onChange({ ...state, filters: {}, page: 0 })}>
        Clear filters
      </button>
    </form>
  );
}
