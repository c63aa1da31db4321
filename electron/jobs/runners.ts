import type { JobKind } from '../../shared/contract/jobs.ts';
import { capacityRunner } from './capacity.ts';
import { comparisonRunner } from './comparison.ts';
import { runRunner } from './run.ts';
import type { JobRunner } from './runner.ts';

/** Every kind's runner: a kind without one is a type error here. */
export const RUNNERS: { readonly [K in JobKind]: JobRunner<K> } = {
  run: runRunner,
  comparison: comparisonRunner,
  capacity: capacityRunner,
};
