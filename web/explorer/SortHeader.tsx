import type { ComponentChildren } from 'preact';
import type { ExplorerState } from './state.js';

/** Pure: the state after activating a column's sort: the same column flips its order, another starts highest first. */
export function sortedBy(state: ExplorerState, sort: ExplorerState['sort']): ExplorerState {
  const order = state.sort === sort ? (state.order === 'desc' ? 'asc' : 'desc') : 'desc';
  return { ...state, sort, order, page: 0 };
}

/**
 * A column header that sorts the list through the API's `sort`/`order` (kept in the URL like the
 * filters): a button, so Enter and Space work, and `aria-sort` on the header of the sorted column.
 */
export function SortHeader({
  sort,
  state,
  navigate,
  children,
}: {
  sort: ExplorerState['sort'];
  state: ExplorerState;
  navigate: (next: ExplorerState) => void;
  children: ComponentChildren;
}) {
  const active = state.sort === sort;
  const direction = state.order === 'asc' ? 'ascending' : 'descending';
  return (
    <th scope="col" class="num" aria-sort={active ? direction : undefined} data-sort={sort}>
      <button type="button" class="sort" onClick={() => navigate(sortedBy(state, sort))}>
        {children}
        <span class="sort-mark" aria-hidden="true">
          {active ? (state.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}
