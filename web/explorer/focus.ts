/** Cancels the pending focusWhenShown, if any. */
let pending: (() => void) | null = null;

/**
 * Focuses the first element matching `selector` as soon as the page shows it (now, or when a later
 * render adds it), giving up after `timeoutMs`. A view's content arrives after its data loads, so
 * focus cannot move at the moment of navigation; a newer call replaces an older one.
 */
export function focusWhenShown(selector: string, timeoutMs = 15_000): void {
  pending?.();
  const observer = new MutationObserver(() => attempt());
  const timer = setTimeout(() => done(), timeoutMs);
  function done() {
    observer.disconnect();
    clearTimeout(timer);
    pending = null;
  }
  function attempt(): boolean {
    const el = document.querySelector<HTMLElement>(selector);
    if (!el) return false;
    done();
    el.focus();
    return true;
  }
  pending = done;
  if (!attempt()) observer.observe(document.body, { childList: true, subtree: true, attributes: true });
}

/** Pure: the selector of a detail view's heading once the view shows `key`'s data ("campaign:123"). */
export const headingSelector = (key: string) => `[data-heading-for="${CSS.escape(key)}"]`;
/** Pure: the selector of the link that opened `id` (a result, a campaign row, a linked campaign). */
export const openerSelector = (id: string) => `a[data-open-id="${CSS.escape(id)}"]`;
