import { useMemo } from 'react';
import type { ActiveCapacity, TrebuchetApi } from '../../../shared/contract/api.ts';
import type { CapacityEvent, CapacityPlan } from '../../../shared/capacity/plan.ts';
import { useJobRun, type JobWiring, type JobRun } from '../../run/useJobRun.ts';
import {
  adoptCapacity,
  beginCapacity,
  idleCapacity,
  reduceCapacity,
  type CapacityRunState,
} from './capacityRun.ts';

export type CapacityRun = JobRun<CapacityPlan, CapacityRunState>;

/**
 * Starts, follows and stops one capacity job at a time through the host's capacity.*
 * commands, and takes up one this page started before a reload (capacity.active); onAdopt
 * hears its plan.
 */
export function useCapacityRun(api: TrebuchetApi, onAdopt: (plan: CapacityPlan) => void): CapacityRun {
  const kind = useMemo<JobWiring<CapacityPlan, CapacityEvent, ActiveCapacity, CapacityRunState>>(
    () => ({
      idle: idleCapacity,
      begin: beginCapacity,
      reduce: reduceCapacity,
      started: (s, capacityId, stopping) => ({ ...s, capacityId, phase: stopping ? 'stopping' : 'running' }),
      idOf: (s) => s.capacityId,
      adopt: (active) => ({ state: adoptCapacity(active), id: active.capacityId, plan: active.plan }),
      isLast: (e) => e.type === 'done',
      host: {
        start: async (plan) => (await api.capacity.start({ plan })).capacityId,
        stop: (capacityId) => api.capacity.stop({ capacityId }),
        active: async () => (await api.capacity.active()).searches,
        subscribe: (id, listener) => api.onCapacityEvent(id, listener),
      },
      noun: 'capacity search',
    }),
    [api],
  );
  return useJobRun(kind, onAdopt);
}
