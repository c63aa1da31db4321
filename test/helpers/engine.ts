import { expect } from 'vitest';
import { addSample, type RunResult, type Sample, type StageResult } from '../../shared/model/result.ts';
import { scenarioSchema, type ScenarioInput } from '../../shared/model/scenario.ts';
import type { Stage } from '../../shared/model/stages.ts';
import type { Recorder } from '../../electron/engine/recording/recorder.ts';
import type { EngineId, TargetFacts } from '../../electron/engine/result.ts';
import { recorderReport } from '../../electron/engine/recording/recorder-report.ts';
import { startRun } from '../../electron/engine/run.ts';
import { buildRunResult } from '../../electron/engine/shards/results.ts';
import { buildRunSpec } from '../../electron/engine/spec.ts';
import type { LoadOutcome, RunSpec, SpecPlacement } from '../../electron/engine/types.ts';

/** A scenario with one target at url; every other field may be overridden. */
export function oneTarget(
  url: string,
  rest: Omit<ScenarioInput, 'targets'> & { target?: Omit<ScenarioInput['targets'][number], 'url'> } = {},
): ScenarioInput {
  const { target, ...scenario } = rest;
  return { name: 'engine test', ...scenario, targets: [{ url, ...target }] };
}

/**
 * The RunSpec of the scenario's first target, built in memory (a text body becomes bytes; no
 * file is read): for tests that drive a load generator or the result builder without a worker.
 */
export function runSpecFixture(input: ScenarioInput, over: Partial<RunSpec> = {}): RunSpec {
  const scenario = scenarioSchema.parse(input);
  const target = scenario.targets[0]!;
  return {
    runId: 'test-run',
    scenarioName: scenario.name,
    target,
    load: scenario.load,
    options: scenario.options,
    body: target.body.kind === 'text' ? new TextEncoder().encode(target.body.text) : null,
    ca: null,
    appVersion: '0.0.0-test',
    ...over,
  };
}

/**
 * The RunResult of a one-shard run whose recorder and load generator outcome are given (after the last
 * tick), through the engine's own path: the shard's report, merged into the result.
 */
export function recorderResult(input: {
  spec: RunSpec;
  status: 'completed' | 'cancelled';
  startedAt: Date;
  endedAt: Date;
  measuredSeconds: number;
  recorder: Recorder;
  outcome: LoadOutcome;
  samples: Sample[];
  engine: EngineId;
  facts: TargetFacts;
}): RunResult {
  const { recorder, outcome, facts, ...rest } = input;
  return buildRunResult({
    ...rest,
    error: null,
    reports: [recorderReport(recorder, outcome)],
    tls: facts.tls,
    server: facts.server,
  });
}

export interface TargetRun {
  result: RunResult;
  /** Samples as the host received them, one per tick (a final fold replacing the last). */
  samples: Sample[];
  /** Wall-clock ms from stop() to the result, when stopAfterMs was given. */
  stopMs: number | null;
  /**
   * When stopAfterMs was given: the most the run's own clock (Sample.elapsedSeconds) can have
   * read when the result arrived, i.e. the host time from just before the worker was started
   * to the result (the run's clock starts later, in the worker). A stopped run's
   * durationSeconds stays within it however slowly the machine ran, so tests compare with it
   * instead of a fixed number of seconds. (A bound from the first sample's arrival would be
   * too tight: the sample is older than its arrival by the time it spent in the message queue.)
   */
  elapsedBound: number | null;
}

/** oneTarget with the engine forced to autocannon (unless the options name another). */
export function autocannonTarget(url: string, rest: Parameters<typeof oneTarget>[1] = {}): ScenarioInput {
  return oneTarget(url, { ...rest, options: { engine: 'autocannon', ...rest.options } });
}

/**
 * Runs the scenario's first target in an engine worker, as a run job does (electron/jobs/target-run.ts). With
 * stopAfterMs, stop() is called that long after the load began (timed from the first
 * sample, so a slow worker start on a busy machine does not eat into it).
 */
export async function runTarget(
  input: ScenarioInput,
  opts: { stopAfterMs?: number; placement?: SpecPlacement } = {},
): Promise<TargetRun> {
  const scenario = scenarioSchema.parse(input);
  const built = await buildRunSpec(scenario, 0, { runId: 'test-run', appVersion: '0.0.0-test' });
  if (!built.ok) return { result: built.result, samples: [], stopMs: null, elapsedBound: null };
  const samples: Sample[] = [];
  let firstSample: (s: Sample) => void = () => undefined;
  const gotSample = new Promise<Sample>((resolve) => (firstSample = resolve));
  const launchedAt = performance.now();
  const handle = startRun(opts.placement ? { ...built.spec, placement: opts.placement } : built.spec, {
    onSample: (s) => {
      addSample(samples, s);
      firstSample(s);
    },
  });
  const stopAfterMs = opts.stopAfterMs;
  if (stopAfterMs === undefined)
    return { result: await handle.done, samples, stopMs: null, elapsedBound: null };
  const first = await Promise.race([gotSample, handle.done.then(() => null)]);
  if (first === null) return { result: await handle.done, samples, stopMs: null, elapsedBound: null };
  await new Promise((r) => setTimeout(r, Math.max(0, stopAfterMs - first.elapsedSeconds * 1000)));
  const t = performance.now();
  const result = await handle.stop();
  const end = performance.now();
  return {
    result,
    samples,
    stopMs: end - t,
    elapsedBound: (end - launchedAt) / 1000,
  };
}

/** A closed-model ramp: 1 s up to 4 connections, 1 s at 4, 1 s down to 1. */
export const CLOSED_RAMP: Stage[] = [
  { durationSeconds: 1, target: 4 },
  { durationSeconds: 1, target: 4 },
  { durationSeconds: 1, target: 1 },
];

/**
 * What a run of CLOSED_RAMP shows, in one worker or several: the samples at 4 connections at
 * the peak and 1 at the end, three stage rows (none planned) that add up to the run. Returns the rows.
 */
export function expectClosedRamp(result: RunResult, samples: readonly Sample[]): StageResult[] {
  const connections = samples.map((s) => s.connections!);
  expect(Math.max(...connections)).toBe(4);
  expect(connections.at(-1)).toBe(1);
  const stages = result.stages!;
  expect(stages).toHaveLength(3);
  expect(stages.every((s) => s.planned === null && s.requests > 0)).toBe(true);
  expect(stages.reduce((n, s) => n + s.requests, 0)).toBe(result.requests.total);
  return stages;
}
