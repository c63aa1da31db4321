import type { StartTarget, TargetListener } from '../../electron/jobs/target-run.ts';
import type { RunResult, Sample } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import type { ResourceSample } from '../../shared/model/server-resources.ts';
import { resultWith } from './comparison-results.ts';

/** What a target's run answers with: a result, null (no result at all), or an Error (the host broke down). */
export type FakeAnswer = RunResult | null | Error;

interface FakeRun {
  scenario: Scenario;
  on: TargetListener;
  begun: boolean;
  settled: boolean;
  settle(answer: FakeAnswer): void;
}

/**
 * The engine, faked at the one place every job runs a part (StartTarget): it records each
 * target it is asked to run and runs nothing. With `answer`, each run begins at once, sends
 * `samples` and answers (unless `hold` keeps it going until stopped); without, the test plays
 * each run's start, samples and result by its index. A stopped run answers as a real one
 * does: with what it measured, status 'cancelled' (or null, stopped before its load began).
 */
export class FakeEngine {
  readonly started: Scenario[] = [];
  /** The engine run id each was given (a result carries it as its runId). */
  readonly runIds: string[] = [];
  /** Indices (into started) of the runs asked to stop. */
  readonly stopped: number[] = [];
  readonly #runs: FakeRun[] = [];
  readonly #answer: ((scenario: Scenario, index: number) => FakeAnswer) | null;
  readonly #hold: (scenario: Scenario) => boolean;
  readonly #samples: (scenario: Scenario) => Sample[];
  readonly #cancelled: (scenario: Scenario) => RunResult;

  constructor(
    opts: {
      answer?: (scenario: Scenario, index: number) => FakeAnswer;
      hold?: (scenario: Scenario) => boolean;
      samples?: (scenario: Scenario) => Sample[];
      cancelled?: (scenario: Scenario) => RunResult;
    } = {},
  ) {
    this.#answer = opts.answer ?? null;
    this.#hold = opts.hold ?? (() => false);
    this.#samples = opts.samples ?? (() => []);
    this.#cancelled =
      opts.cancelled ?? ((s) => resultWith({ rps: 1, status: 'cancelled', url: s.targets[0]?.url }));
  }

  readonly start: StartTarget = (scenario, targetIndex, on, ids) => {
    const index = this.started.length;
    this.runIds.push(ids.runId);
    // One target's scenario, as the engine gets it.
    this.started.push({ ...scenario, targets: [scenario.targets[targetIndex]!] });
    let settle: (answer: FakeAnswer) => void = () => undefined;
    const done = new Promise<RunResult | null>((resolve, reject) => {
      settle = (answer) => (answer instanceof Error ? reject(answer) : resolve(answer));
    });
    const run: FakeRun = {
      scenario,
      on,
      begun: false,
      settled: false,
      settle: (answer) => {
        if (run.settled) return;
        run.settled = true;
        settle(answer);
      },
    };
    this.#runs.push(run);
    const answer = this.#answer;
    if (answer) {
      // As the engine does, a tick later: the job has its handle by then.
      queueMicrotask(() => {
        const a = answer(scenario, index);
        if (a instanceof Error) return run.settle(a);
        this.begin(index);
        for (const sample of this.#samples(scenario)) on.sample(sample);
        if (!this.#hold(scenario)) run.settle(a);
      });
    }
    return {
      done,
      stop: () => {
        this.stopped.push(index);
        run.settle(run.begun ? this.#cancelled(scenario) : null);
        return Promise.resolve();
      },
    };
  };

  #run(index: number): FakeRun {
    const run = this.#runs[index];
    if (!run) throw new Error(`the engine was asked for ${this.#runs.length} run(s), not ${index + 1}`);
    if (run.settled) throw new Error(`run ${index} has ended`);
    return run;
  }

  /** Run `index` begins its load. */
  begin(index: number): void {
    const run = this.#run(index);
    run.begun = true;
    run.on.started();
  }

  sample(index: number, sample: Sample): void {
    this.#run(index).on.sample(sample);
  }

  reading(index: number, reading: ResourceSample): void {
    this.#run(index).on.reading(reading);
  }

  /** Run `index` ends with its result (null: none, an Error: the host broke down). */
  finish(index: number, answer: FakeAnswer): void {
    this.#run(index).settle(answer);
  }
}

/** Waits past the macrotask after which the Electron IPC binding begins a job it started. */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
