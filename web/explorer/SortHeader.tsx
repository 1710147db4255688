import type { ComponentChildren } from 'preact';
import { sortedBy, type ExplorerState } from './state.js';

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
