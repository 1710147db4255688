import { useEffect, useState } from 'preact/hooks';
import { requestSlot, withQuery } from './api.js';

/** Events that arrive together (one metrics run, one block) cause one reload. */
const SETTLE_MS = 300;
/**
 * An event commits with its change in PostgreSQL; the search documents the views read follow within
 * about a second (the search projector, README "Jobs"): a second reload then shows them for sure.
 */
const FOLLOW_UP_MS = 2000;

/**
 * A number that goes up when `GET /v4/events` pushes one of `types` matching `filters` (the open view's
 * figures changed): views pass it to useApi as `refresh` and reload then, without polling. The stream
 * starts at `after=latest` (what commits from now on); EventSource resumes it with Last-Event-ID after a
 * network error, and a view reloads once it is back, for what may have changed meanwhile. A view
 * reloads twice per change: once the events settle, and once more when the search projection has
 * surely caught up with them. Without
 * EventSource, or when the API refuses the stream (a caller's concurrent streams are bounded), the view
 * just stays as loaded. `filters` null: nothing to follow.
 */
export function useLiveRefresh(filters: Record<string, string> | null, types: readonly string[]): number {
  const [version, setVersion] = useState(0);
  const key = filters ? JSON.stringify([filters, types]) : null;
  useEffect(() => {
    if (!filters || typeof EventSource === 'undefined') return;
    const controller = new AbortController();
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let followUp: ReturnType<typeof setTimeout> | undefined;
    const reload = () => setVersion((v) => v + 1);
    const bump = () => {
      clearTimeout(timer);
      clearTimeout(followUp);
      timer = setTimeout(reload, SETTLE_MS);
      followUp = setTimeout(reload, FOLLOW_UP_MS);
    };
    // The stream's request takes its turn under the page's request budget (the API's rate limit counts
    // it) and holds it until the API answered it (opened) or it failed.
    let release = () => {};
    void requestSlot(controller.signal).then((releaseSlot) => {
      release = releaseSlot;
      if (controller.signal.aborted) return release();
      source = new EventSource(withQuery('/v4/events', { ...filters, type: types.join(','), after: 'latest' }));
      for (const type of types) source.addEventListener(type, bump);
      let opened = false;
      source.addEventListener('open', () => {
        release();
        if (opened) bump();
        opened = true;
      });
      source.addEventListener('error', release);
    });
    return () => {
      controller.abort();
      clearTimeout(timer);
      clearTimeout(followUp);
      source?.close();
      release();
    };
  }, [key]);
  return version;
}
