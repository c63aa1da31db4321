import { useEffect, useState } from 'react';
import type { TrebuchetApi } from '../../shared/contract/api.ts';
import type { StoreProblem } from '../../shared/records/preset-summary.ts';

/** Store files the host found broken at start-up (kept aside), to tell the user once. */
export function useStartupProblems(api: TrebuchetApi): StoreProblem[] {
  const [problems, setProblems] = useState<StoreProblem[]>([]);
  useEffect(() => {
    let live = true;
    api.app.info().then(
      (info) => {
        if (live) setProblems(info.problems ?? []);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  return problems;
}
