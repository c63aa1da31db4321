import { useCallback, useEffect, useMemo, useState } from 'react';
import { errorText } from '../lib/errors.ts';

export interface Query<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

interface Answer<T> {
  request: object;
  data: T | null;
  error: string | null;
}

/**
 * A request to the host whose answer a view shows (the preset list, the history list):
 * loaded on mount and whenever reload() is called; the previous answer stays on screen
 * while a new one loads.
 */
export function useQuery<T>(load: () => Promise<T>): Query<T> {
  const [generation, setGeneration] = useState(0);
  // A new object per request, so an answer can tell which request it belongs to.
  const request = useMemo(() => ({ load, generation }), [load, generation]);
  const [answer, setAnswer] = useState<Answer<T> | null>(null);

  useEffect(() => {
    let live = true;
    request.load().then(
      (data) => {
        if (live) setAnswer({ request, data, error: null });
      },
      (e: unknown) => {
        if (live)
          setAnswer((prev) => ({
            request,
            data: prev?.data ?? null,
            error: errorText(e),
          }));
      },
    );
    return () => {
      live = false;
    };
  }, [request]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return {
    data: answer?.data ?? null,
    error: answer?.error ?? null,
    loading: answer?.request !== request,
    reload,
  };
}
