import type { RunResult } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { messageOf } from '../monitor/source.ts';
import { jobStatus, type JobContext, type JobRunner } from './runner.ts';
import type { TargetRun } from './target-run.ts';

/**
 * A run: the scenario's targets one after another, each in its own engine worker, reporting
 * started, part-started, a sample per tick, and each target's result. A host breakdown (not
 * a failing target, which gives a failed result) is an 'error' and ends the run 'failed'.
 * With several targets, every one is checked first: a URL answered outside 2xx/3xx (a wrong
 * path) stops the run before any target's load, each such target then failing in its own
 * pre-flight (its result says why) and the others not run.
 */
export const runRunner: JobRunner<'run'> = {
  start(scenario, emit, context) {
    let stopped = false;
    const abort = new AbortController();
    let current: TargetRun | null = null;
    const results: RunResult[] = [];
    const execute = async () => {
      const targetCount = scenario.targets.length;
      emit({ type: 'progress', progress: { type: 'started', targetCount } });
      const wrong = targetCount > 1 ? await errorStatusTargets(scenario, context, abort.signal) : [];
      const parts = wrong.length > 0 ? wrong : scenario.targets.map((_, i) => i);
      for (const part of parts) {
        if (stopped) break;
        current = context.startTarget(
          scenario,
          part,
          {
            started: () => emit({ type: 'progress', progress: { type: 'part-started', part } }),
            sample: (sample) => emit({ type: 'sample', part, source: 'engine', sample }),
            reading: (sample) => emit({ type: 'sample', part, source: 'server', sample }),
            machine: (sample) => emit({ type: 'sample', part, source: 'machine', sample }),
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
        stopped && results.length < parts.length,
        results.map((r) => r.status),
      );
    };
    const done = execute();
    return {
      done,
      stop: async () => {
        stopped = true;
        abort.abort();
        await current?.stop();
        await done;
      },
    };
  },
};

/**
 * The targets whose URL the pre-flight found answered outside 2xx/3xx, checked all at once.
 * Other failures (refused, TLS) are left to each target's own run, as before: they cost no load.
 */
async function errorStatusTargets(
  scenario: Scenario,
  context: JobContext,
  signal: AbortSignal,
): Promise<number[]> {
  const checked = await Promise.all(
    scenario.targets.map(async (target, i) => {
      try {
        const r = await context.checkTarget({ ...scenario, targets: [target] }, signal);
        return !r.ok && r.kind === 'status' ? i : null;
      } catch {
        // The target's own run checks it again and says what went wrong.
        return null;
      }
    }),
  );
  return checked.filter((i): i is number => i !== null);
}
