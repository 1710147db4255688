import type { ComponentChildren } from 'preact';
import { toSearch, type ExplorerState } from './state.js';

/** Moves to another explorer state; `opened` names what was opened, so coming back focuses its link again. */
export type Navigate = (next: ExplorerState, options?: { replace?: boolean; opened?: string }) => void;

/** The history entry's record of the view it was opened from (App pushes it), for BackLink. */
export type HistoryEntry = { from?: string; opened?: string } | null;

const plainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

/**
 * A real link to another explorer state (opens in a new tab too); a plain click navigates in place.
 * `openId` marks the link as the opener of that id (a result, a campaign) for focus on return.
 */
export function Link({
  to,
  navigate,
  children,
  testId,
  openId,
  current,
}: {
  to: ExplorerState;
  navigate: Navigate;
  children: ComponentChildren;
  testId?: string;
  openId?: string;
  /** The view the link leads to is the one shown (a header link): `aria-current="page"`. */
  current?: boolean;
}) {
  const href = `/${toSearch(to)}`;
  return (
    <a
      href={href}
      data-testid={testId}
      data-open-id={openId}
      aria-current={current ? 'page' : undefined}
      onClick={(e) => {
        if (!plainClick(e)) return;
        e.preventDefault();
        navigate(to, openId ? { opened: openId } : {});
      }}
    >
      {children}
    </a>
  );
}

/**
 * "Back" to `to`: when the previous history entry is that very view (the usual way here), it goes
 * back in history, so the view comes back as it was left (focus on the link that was opened) and
 * the browser's Back button goes on from there; otherwise (a shared link) it opens `to`.
 */
export function BackLink({
  to,
  navigate,
  children,
}: {
  to: ExplorerState;
  navigate: Navigate;
  children: ComponentChildren;
}) {
  return (
    <a
      href={`/${toSearch(to)}`}
      class="back"
      data-testid="back"
      onClick={(e) => {
        if (!plainClick(e)) return;
        e.preventDefault();
        if ((history.state as HistoryEntry)?.from === toSearch(to)) history.back();
        else navigate(to);
      }}
    >
      {children}
    </a>
  );
}
