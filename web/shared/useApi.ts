import { useEffect, useState } from 'preact/hooks';
import { isAbort } from './api.js';

export type Loaded<T> = {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
  /** The key `data` (or `error`) belongs to; while a newer key loads, the previous answer stays whole under its own key. */
  dataKey: string | null;
};

/**
 * Loads `load(signal)` whenever `key` changes (null: nothing to load), and again for the same key when
 * `refresh` changes (useLiveRefresh: the figures changed), the answer on screen staying until the new
 * one replaces it. A superseded request is aborted (AbortController: not sent if still waiting for
 * the rate gate, cancelled in flight otherwise) and its answer dropped, so a fast filter change never
 * shows an older answer, and `data` always comes whole from one key.
 */
export function useApi<T>(
  key: string | null,
  load: (signal: AbortSignal, fresh: boolean) => Promise<T>,
  refresh = 0,
): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({
    data: undefined,
    error: undefined,
    loading: key !== null,
    dataKey: null,
  });
  useEffect(() => {
    if (key === null) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    // A reload for the same key asks past the browser's cache (apiGet's `fresh`).
    load(controller.signal, refresh > 0).then(
      (data) => !controller.signal.aborted && setState({ data, error: undefined, loading: false, dataKey: key }),
      (error: Error) =>
        !controller.signal.aborted &&
        !isAbort(error) &&
        // A failed reload keeps the answer on screen; a failed first load shows the error.
        setState((s) =>
          s.dataKey === key && s.data !== undefined
            ? { ...s, loading: false }
            : { data: undefined, error, loading: false, dataKey: key },
        ),
    );
    return () => controller.abort();
  }, [key, refresh]);
  return state;
}
