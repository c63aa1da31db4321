/**
 * What History, presets and saved result files make of each job kind (run, comparison,
 * capacity search): one spec per kind, so the records, summaries, imports and file reads
 * that follow are written once for every kind. A kind's job (its plan, progress and part
 * results) is its JOB_SPECS entry (shared/contract/jobs.ts); this is its record's side.
 * Pure.
 */
import { capacityReports, type CapacityResult } from '../capacity/report.ts';
import { goalText } from '../capacity/goal.ts';
import { answerShort } from '../capacity/search.ts';
import { comparisonTargetLabel, levelKindOf } from '../comparison/plan.ts';
import type { ComparisonResult } from '../comparison/result.ts';
import { runOfPart, type JobKind, type PartResultOf, type PlanOf } from '../contract/jobs.ts';
import { formatCount } from '../figures/units.ts';
import type { RunResult, RunStatus } from '../model/result.ts';
import { SCENARIO_VERSION, targetLabel, UNTITLED_SCENARIO, type Header } from '../model/scenario.ts';
import type { HistoryRecordDraft, HistoryRecordOf, HistorySummary } from './history.ts';
import { lengthText, loadText, secondsText } from './what-ran.ts';

/** A saved result as its reports are made of it: a run's results, a comparison, a search. */
export type SavedResult =
  | { kind: 'run'; results: RunResult[] }
  | { kind: 'comparison'; comparison: ComparisonResult }
  | { kind: 'capacity'; capacity: CapacityResult };
export type SavedKind = SavedResult['kind'];
export type SavedResultOf<K extends JobKind> = Extract<SavedResult, { kind: K }>;

/** A record's draft of one kind (a whole record is one too). */
export type DraftOf<K extends JobKind> = Extract<HistoryRecordDraft, { kind: K }>;
/** What holds a kind's plan: its record, draft or preset (a run's is its `scenario`). */
export type PlanHolder<K extends JobKind> = K extends 'run'
  ? { scenario: PlanOf<'run'> }
  : { plan: PlanOf<K> };

/** Where a saved file holds its results: a History record, a list of runs, one run. */
export type FileShape = 'record' | 'list' | 'single';

/** A target as a preset's secrets and a record's list name it. */
export interface NamedTarget {
  label: string;
  headers: Header[];
}

export interface RecordKind<K extends JobKind> {
  /** What a message calls one: "a run". */
  noun: string;
  planOf(holder: PlanHolder<K>): PlanOf<K>;
  /** The plan's targets, named as every list names them. */
  targets(plan: PlanOf<K>): NamedTarget[];
  /** What it ran, in a few words (what-ran.ts). */
  ran(plan: PlanOf<K>): string;
  /** Its parts' results in run order: the run's results, the comparison's outcomes, the search's steps. */
  parts(record: DraftOf<K>): readonly PartResultOf<K>[];
  /** The history list's figures per target. */
  perTarget(record: HistoryRecordOf<K>): HistorySummary['perTarget'];
  /** Whether it gets a verdict: a capacity search's steps beyond the goal are meant to break it. */
  judged: boolean;
  /** A record as the saved result its reports and diffs are made of. */
  saved(record: HistoryRecordOf<K>): SavedResultOf<K>;
  /** The parts a saved result holds. */
  savedParts(saved: SavedResultOf<K>): readonly PartResultOf<K>[];
  /** Where part `i`'s run begins in a file of that shape: "results.0", "outcomes.2.result". */
  runPath(i: number, shape: FileShape): string;
  /** What a saved result is called; `file`: the one it was read from. */
  savedName(saved: SavedResultOf<K>, file?: string): string;
  /** The History record a saved result becomes (its name, when it has one). */
  fromSaved(saved: SavedResultOf<K>, appVersion: string, file?: string): DraftOf<K>;
  /** What History keeps of a finished job: its plan and its parts' results in run order. */
  fromJob(plan: PlanOf<K>, parts: PartResultOf<K>[], status: RunStatus): JobRecordOf<K>;
}

/** A job's record before the app version is filled in on saving (electron/jobs/history-saver.ts). */
export type JobRecordOf<K extends JobKind> = K extends JobKind ? Omit<DraftOf<K>, 'appVersion'> : never;

/** A status from the parts' runs: cancelled when one was stopped, failed when every one failed. */
function statusOf(results: readonly RunResult[]): RunStatus {
  if (results.some((r) => r.status === 'cancelled')) return 'cancelled';
  return results.length > 0 && results.every((r) => r.status === 'failed') ? 'failed' : 'completed';
}

/** A file's name without its folder and its .json (or History's .run.json): "nginx-c100". */
function fileStem(file: string): string {
  return (file.split(/[\\/]/).pop() ?? file).replace(/(\.run)?\.json$/i, '');
}

const RUN: RecordKind<'run'> = {
  noun: 'a run',
  planOf: (h) => h.scenario,
  targets: (scenario) => scenario.targets.map((t) => ({ label: targetLabel(t), headers: t.headers })),
  ran: (scenario) => loadText(scenario.load),
  parts: (r) => r.results,
  perTarget: (r) =>
    r.results.map((result) => ({
      target: targetLabel(result.target),
      rps: result.throughput.requestsPerSecond,
      p99: result.latency?.percentiles['99'] ?? null,
    })),
  judged: true,
  saved: (r) => ({ kind: 'run', results: r.results }),
  savedParts: (s) => s.results,
  runPath: (i, shape) => (shape === 'record' ? `results.${i}` : shape === 'list' ? String(i) : ''),
  // A run nobody named (the CLI's without --name) by the file it came from, or else by its targets.
  savedName: (s, file) => {
    const named = s.results[0]?.scenarioName.trim() ?? '';
    if (named !== '' && named !== UNTITLED_SCENARIO) return named;
    const stem = file === undefined ? '' : fileStem(file).trim();
    if (stem !== '') return stem;
    return [...new Set(s.results.map((r) => targetLabel(r.target)))].join(', ') || UNTITLED_SCENARIO;
  },
  // A run's file holds its results only: its scenario is made again from them (each carries
  // its scenario's name, target, load and options).
  fromSaved: (s, appVersion, file) => {
    const first = s.results[0]!;
    return {
      kind: 'run',
      name: RUN.savedName(s, file),
      status: statusOf(s.results),
      appVersion,
      scenario: {
        version: SCENARIO_VERSION,
        name: first.scenarioName,
        targets: s.results.map((r) => r.target),
        load: first.load,
        options: first.options,
      },
      results: s.results,
    };
  },
  fromJob: (scenario, results, status) => ({ kind: 'run', status, scenario, results }),
};

const COMPARISON: RecordKind<'comparison'> = {
  noun: 'a comparison',
  planOf: (h) => h.plan,
  targets: (plan) => plan.targets.map((t) => ({ label: comparisonTargetLabel(t), headers: t.headers })),
  ran: (plan) => {
    const { load, levels, repetitions } = plan;
    const list = [...levels]
      .sort((a, b) => a - b)
      .map(formatCount)
      .join(', ');
    const at = levelKindOf(load) === 'connections' ? `c=${list}` : `${list} req/s`;
    const times = repetitions > 1 ? `, ${repetitions} runs each` : '';
    return `${at} · ${lengthText(load)} per cell${times}`;
  },
  parts: (r) => r.outcomes,
  perTarget: () => [],
  judged: true,
  saved: (r) => ({
    kind: 'comparison',
    comparison: { plan: r.plan, status: r.status, outcomes: r.outcomes, preflightFailures: [] },
  }),
  savedParts: (s) => s.comparison.outcomes,
  runPath: (i) => `outcomes.${i}.result`,
  savedName: (s) => s.comparison.plan.name,
  fromSaved: (s, appVersion) => {
    const { plan, status, outcomes } = s.comparison;
    return {
      kind: 'comparison',
      status: status ?? statusOf(outcomes.map((o) => o.result)),
      appVersion,
      plan,
      outcomes: [...outcomes],
    };
  },
  fromJob: (plan, outcomes, status) => ({ kind: 'comparison', status, plan, outcomes }),
};

const CAPACITY: RecordKind<'capacity'> = {
  noun: 'a capacity search',
  planOf: (h) => h.plan,
  targets: (plan) => plan.targets.map((t) => ({ label: targetLabel(t), headers: t.headers })),
  ran: (plan) => `${goalText(plan.search.goal)} · ${secondsText(plan.search.stepSeconds)} steps`,
  parts: (r) => r.steps,
  // The highest rate that held per target, the p99 at it and the answer in words (answerShort:
  // "at least 2,000 req/s (the top rate)", never a bare rate for a lower bound).
  perTarget: (r) =>
    capacityReports(r.plan, r.steps, null).map((report) => {
      const held = report.answer?.heldRate ?? null;
      return {
        target: report.label,
        rps: held,
        p99: report.steps.find((s) => s.rate === held)?.figures.p99 ?? null,
        answer: report.answer === null ? 'not measured' : answerShort(report.answer),
      };
    }),
  judged: false,
  saved: (r) => ({ kind: 'capacity', capacity: { plan: r.plan, status: r.status, steps: r.steps } }),
  savedParts: (s) => s.capacity.steps,
  runPath: (i) => `steps.${i}.result`,
  savedName: (s) => s.capacity.plan.name,
  fromSaved: (s, appVersion) => {
    const { plan, status, steps } = s.capacity;
    return {
      kind: 'capacity',
      status: status ?? statusOf(steps.map((step) => step.result)),
      appVersion,
      plan,
      steps: [...steps],
    };
  },
  fromJob: (plan, steps, status) => ({ kind: 'capacity', status, plan, steps }),
};

/** Every kind's record spec: a job kind without one is a type error here. */
export const RECORD_KINDS: { readonly [K in JobKind]: RecordKind<K> } = {
  run: RUN,
  comparison: COMPARISON,
  capacity: CAPACITY,
};

/** A kind's spec, for a value whose kind is only known at run time. */
export const recordKind = <K extends JobKind>(kind: K): RecordKind<K> => RECORD_KINDS[kind];

/** The runs of a record (or of a draft), whatever its kind. */
export function resultsOf<K extends JobKind>(record: DraftOf<K>): RunResult[] {
  return recordKind(record.kind)
    .parts(record)
    .map((part) => runOfPart(record.kind, part));
}

/** What a saved record ran, in a few words: "5,000 req/s for 3 s". */
export function whatRan<K extends JobKind>(record: { kind: K } & PlanHolder<K>): string {
  const spec = recordKind(record.kind);
  return spec.ran(spec.planOf(record));
}
