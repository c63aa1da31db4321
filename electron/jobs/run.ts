import type { RunResult } from '../../shared/model/result.ts';
import { messageOf } from '../monitor/source.ts';
import { jobStatus, type JobRunner } from './runner.ts';
import type { TargetRun } from './target-run.ts';

/**
 * A run: the scenario's targets one after another, each in its own engine worker, reporting
 * started, part-started, a sample per tick, and each target's result. A host breakdown (not
 * a failing target, which gives a failed result) is an 'error' and ends the run 'failed'.
 */
export const runRunner: JobRunner<'run'> = {
  start(scenario, emit, context) {
    let stopped = false;
    let current: TargetRun | null = null;
    const results: RunResult[] = [];
    const execute = async () => {
      const targetCount = scenario.targets.length;
      emit({ type: 'progress', progress: { type: 'started', targetCount } });
      for (let part = 0; part < targetCount; part++) {
        if (stopped) break;
        current = context.startTarget(
          scenario,
          part,
          {
            started: () => emit({ type: 'progress', progress: { type: 'part-started', part } }),
            sample: (sample) => emit({ type: 'sample', part, source: 'engine', sample }),
            reading: (sample) => emit({ type: 'sample', part, source: 'server', sample }),
          },
          { runId: context.jobId, appVersion: context.appVersion },
        );
        let result: RunResult | null;
        try {
          result = await current.done;
        } catch (error) {
          emit({ type: 'error', part, message: messageOf(error) });
          return 'failed' as const;
        } finally {
          current = null;
        }
        if (!result) break;
        results.push(result);
        emit({ type: 'result', part, result });
      }
      // Stopped with targets left: cancelled, even when the ones that ran completed.
      return jobStatus(
        stopped && results.length < targetCount,
        results.map((r) => r.status),
      );
    };
    const done = execute();
    return {
      done,
      stop: async () => {
        stopped = true;
        await current?.stop();
        await done;
      },
    };
  },
  record: (scenario, results, status) => ({ kind: 'scenario', status, scenario, results }),
};
