// One value read from the server for a page: loading (null), the value, or the error's message, and `reload` for
// Refresh and Try again. The previous value stays while a reload runs, so a refresh does not blank the page.
import { useCallback, useEffect, useState } from 'react';

export interface Resource<T> {
  value: T | null;
  error: string | null;
  reload(): Promise<void>;
}

/** `load` must be stable (useCallback or a module function bound to stable arguments). */
export function useResource<T>(load: () => Promise<T>): Resource<T> {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setValue(await load());
      setError(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }, [load]);
  useEffect(() => { void reload(); }, [reload]);
  return { value, error, reload };
}
