import { stepScenario, type CapacityStep } from '../../shared/capacity/plan.ts';
import type { RunStatus } from '../../shared/model/result.ts';
import { messageOf } from '../monitor/source.ts';
import { runCapacitySearch } from './capacity-search.ts';
import { newRunId } from './ids.ts';
import { waitForCalm } from '../machine/calm.ts';
import type { CapacitySearch } from '../../shared/capacity/search.ts';

/**
 * How long a search waits for a busy machine to calm before measuring a rate again: a few
 * steps' time (warm-up and measured time), what measuring on would cost anyway, so a machine
 * busy for longer costs the search no more than MACHINE_BUSY_TRIES waits.
 */
export const calmBound = (search: Pick<CapacitySearch, 'warmupSeconds' | 'stepSeconds'>): number =>
  4 * (search.warmupSeconds + search.stepSeconds);
import { jobStatus, type JobRunner } from './runner.ts';
import type { TargetRun } from './target-run.ts';

/**
 * A capacity search job: one search per target of the plan, one after another, each step an
 * open-model run of its own (never two at once), part after part over the whole job. A step
 * the engine gave no result for is an 'error', and the job goes on with the next target.
 */
export const capacityRunner: JobRunner<'capacity'> = {
  start(plan, emit, context) {
    const abort = new AbortController();
    let current: TargetRun | null = null;
    const execute = async (): Promise<RunStatus> => {
      const steps: CapacityStep[] = [];
      emit({ type: 'progress', progress: { type: 'started', searchCount: plan.targets.length } });
      for (let searchIndex = 0; searchIndex < plan.targets.length; searchIndex++) {
        if (abort.signal.aborted) break;
        try {
          await runCapacitySearch({
            search: plan.search,
            signal: abort.signal,
            runStep: async ({ stepIndex, rate, phase }) => {
              const part = steps.length;
              current = context.startTarget(
                stepScenario(plan, searchIndex, rate),
                0,
                {
                  started: () =>
                    emit({
                      type: 'progress',
                      progress: { type: 'part-started', part, searchIndex, stepIndex, rate, phase },
                    }),
                  sample: (sample) => emit({ type: 'sample', part, source: 'engine', sample }),
                  reading: (sample) => emit({ type: 'sample', part, source: 'server', sample }),
                  machine: (sample) => emit({ type: 'sample', part, source: 'machine', sample }),
                },
                { runId: newRunId(), appVersion: context.appVersion },
              );
              try {
                return await current.done;
              } finally {
                current = null;
              }
            },
            stepDone: (measured) => {
              const step: CapacityStep = { searchIndex, ...measured };
              emit({ type: 'result', part: steps.length, result: step });
              steps.push(step);
            },
            waitForCalm: async (rate) => {
              const maxSeconds = calmBound(plan.search);
              emit({ type: 'progress', progress: { type: 'machine-wait', searchIndex, rate, maxSeconds } });
              const calm = await (context.waitForCalm ?? waitForCalm)({ maxSeconds, signal: abort.signal });
              emit({
                type: 'progress',
                progress: {
                  type: 'machine-calm',
                  searchIndex,
                  calm: calm.calm,
                  waitedSeconds: calm.waitedSeconds,
                  otherPercent: calm.otherPercent,
                  busiest: calm.busiest,
                },
              });
            },
          });
        } catch (error) {
          emit({ type: 'error', part: steps.length, message: messageOf(error) });
        }
      }
      // No step at all (the engine broke down) measured nothing either: failed.
      if (!abort.signal.aborted && steps.length === 0) return 'failed';
      return jobStatus(
        abort.signal.aborted,
        steps.map((s) => s.result.status),
      );
    };
    const done = execute();
    return {
      done,
      stop: async () => {
        abort.abort();
        await current?.stop();
        await done;
      },
    };
  },
};
