import { useMemo } from 'react';
import type { ActiveComparison, TrebuchetApi } from '../../../shared/contract/api.ts';
import type { ComparisonEvent } from '../../../shared/comparison/cells.ts';
import type { ComparisonPlan } from '../../../shared/comparison/plan.ts';
import { useJobRun, type JobWiring, type JobRun } from '../../run/useJobRun.ts';
import {
  adoptComparison,
  beginComparison,
  idleComparison,
  reduceComparison,
  type ComparisonRunState,
} from './comparisonRun.ts';

export type ComparisonRun = JobRun<ComparisonPlan, ComparisonRunState>;

/**
 * Starts, follows and stops one comparison at a time through the host's compare.* commands,
 * and takes up one this page started before a reload (compare.active); onAdopt hears its plan.
 */
export function useComparisonRun(api: TrebuchetApi, onAdopt: (plan: ComparisonPlan) => void): ComparisonRun {
  const kind = useMemo<JobWiring<ComparisonPlan, ComparisonEvent, ActiveComparison, ComparisonRunState>>(
    () => ({
      idle: idleComparison,
      begin: beginComparison,
      reduce: reduceComparison,
      started: (s, comparisonId, stopping) => ({
        ...s,
        comparisonId,
        phase: stopping ? 'stopping' : 'running',
      }),
      idOf: (s) => s.comparisonId,
      adopt: (active) => ({ state: adoptComparison(active), id: active.comparisonId, plan: active.plan }),
      isLast: (e) => e.type === 'done',
      host: {
        start: async (plan) => (await api.compare.start({ plan })).comparisonId,
        stop: (comparisonId) => api.compare.stop({ comparisonId }),
        active: async () => (await api.compare.active()).comparisons,
        subscribe: (id, listener) => api.onComparisonEvent(id, listener),
      },
      noun: 'comparison',
    }),
    [api],
  );
  return useJobRun(kind, onAdopt);
}
