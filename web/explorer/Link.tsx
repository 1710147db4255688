import type { ComponentChildren } from 'preact';
import { toSearch, type ExplorerState } from './state.js';

/** A real link to another explorer state (opens in a new tab too); a plain click navigates in place. */
export function Link({
  to,
  navigate,
  children,
  testId,
}: {
  to: ExplorerState;
  navigate: (next: ExplorerState) => void;
  children: ComponentChildren;
  testId?: string;
}) {
  const href = `/${toSearch(to)}`;
  return (
    <a
      href={href}
      data-testid={testId}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
