import { useEffect, useState } from 'preact/hooks';

export type Loaded<T> = { data: T | undefined; error: Error | undefined; loading: boolean };

/**
 * Loads `load()` whenever `key` changes (null: nothing to load); answers of a superseded key are
 * dropped, so a fast filter change never shows an older answer.
 */
export function useApi<T>(key: string | null, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<Loaded<T> & { key: string | null }>({ data: undefined, error: undefined, loading: key !== null, key });
  useEffect(() => {
    if (key === null) return;
    let current = true;
    setState((s) => ({ ...s, loading: true, error: undefined, key }));
    load().then(
      (data) => current && setState({ data, error: undefined, loading: false, key }),
      (error: Error) => current && setState({ data: undefined, error, loading: false, key }),
    );
    return () => { current = false; };
  }, [key]);
  return state;
}
