import type { RunResult, Sample } from '../../shared/result.ts';
import { scenarioSchema, type ScenarioInput } from '../../shared/scenario.ts';
import { startRun } from '../../electron/engine/run.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';

/** A scenario with one target at url; every other field may be overridden. */
export function oneTarget(
  url: string,
  rest: Omit<ScenarioInput, 'targets'> & { target?: Omit<ScenarioInput['targets'][number], 'url'> } = {},
): ScenarioInput {
  const { target, ...scenario } = rest;
  return { name: 'engine test', ...scenario, targets: [{ url, ...target }] };
}

export interface TargetRun {
  result: RunResult;
  /** Samples as the host received them, one per tick. */
  samples: Sample[];
  /** Wall-clock ms from stop() to the result, when stopAfterMs was given. */
  stopMs: number | null;
}

/** oneTarget with the engine forced to autocannon (unless the options name another). */
export function autocannonTarget(url: string, rest: Parameters<typeof oneTarget>[1] = {}): ScenarioInput {
  return oneTarget(url, { ...rest, options: { engine: 'autocannon', ...rest.options } });
}

/**
 * Runs the scenario's first target in an engine worker, as the RunManager does. With
 * stopAfterMs, stop() is called that long after the load began (timed from the first
 * sample, so a slow worker start on a busy machine does not eat into it).
 */
export async function runTarget(
  input: ScenarioInput,
  opts: { stopAfterMs?: number } = {},
): Promise<TargetRun> {
  const scenario = scenarioSchema.parse(input);
  const built = await buildRunSpec(scenario, 0, { runId: 'test-run', appVersion: '0.0.0-test' });
  if (!built.ok) return { result: built.result, samples: [], stopMs: null };
  const samples: Sample[] = [];
  let firstSample: (s: Sample) => void = () => undefined;
  const gotSample = new Promise<Sample>((resolve) => (firstSample = resolve));
  const handle = startRun(built.spec, {
    onSample: (s) => {
      samples.push(s);
      firstSample(s);
    },
  });
  const stopAfterMs = opts.stopAfterMs;
  if (stopAfterMs === undefined) return { result: await handle.done, samples, stopMs: null };
  const first = await Promise.race([gotSample, handle.done.then(() => null)]);
  if (first === null) return { result: await handle.done, samples, stopMs: null };
  await new Promise((r) => setTimeout(r, Math.max(0, stopAfterMs - first.elapsedSeconds * 1000)));
  const t = performance.now();
  const result = await handle.stop();
  return { result, samples, stopMs: performance.now() - t };
}
