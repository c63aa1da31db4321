/**
 * The verdict on a result: whether its figures are the server's. A figure the generator made
 * (client flat out, schedule not kept) or one that measured something other than the page
 * (every response a 404, failures, a stopped run) is never shown as a clean result. Computed
 * here only; the UI, the CLI, the CSV and HTML exports all show this verdict. The rules that
 * find the caveats are in shared/verdict/caveats.ts. Pure.
 */
import type { RunResult } from '../model/result.ts';
import { fixed } from '../figures/units.ts';
import { figureCaveats, plural, shardsApart } from './caveats.ts';
import { interruptionText } from '../model/interruption.ts';
import {
  VERDICT_STATES,
  type Caveat,
  type CaveatCode,
  type VerdictFigure,
  type VerdictRecord,
  type VerdictState,
} from '../model/verdict-record.ts';

// The states, best to worst, and the reasons' codes are the JSON record's (shared/model/verdict-record.ts).
export { VERDICT_STATES, type VerdictState } from '../model/verdict-record.ts';

export const VERDICT_STATE_LABELS: Record<VerdictState, string> = {
  clean: 'clean',
  partial: 'partial',
  failures: 'failures',
  'setup-bound': 'setup-bound',
  'link-bound': 'link-bound',
  'server-worker-bound': 'server worker-bound',
  'rate-not-reached': 'rate not reached',
  'client-bound': 'client-bound',
  'machine-busy': 'machine busy',
  'all-non-2xx': 'all non-2xx',
  'not-measured': 'not measured',
};

export interface Verdict {
  state: VerdictState;
  /** state === 'clean': the figures can be shown as the server's (warn notes may still apply). */
  clean: boolean;
  /** Worst first. */
  caveats: Caveat[];
  /** One sentence: "Measured cleanly." or the worst caveat's message. */
  headline: string;
}

/** What a caveat does to the state: a bad caveat sets its state; a warn one only 'partial'. */
const STATE_OF: Record<CaveatCode, VerdictState> = {
  'not-measured': 'not-measured',
  'all-non-2xx': 'all-non-2xx',
  'machine-busy': 'machine-busy',
  'client-bound': 'client-bound',
  'server-worker-bound': 'server-worker-bound',
  'link-bound': 'link-bound',
  'setup-bound': 'setup-bound',
  'closed-model': 'clean',
  'rate-not-reached': 'rate-not-reached',
  'transport-errors': 'failures',
  'error-statuses': 'failures',
  'slo-failures': 'failures',
  partial: 'partial',
  'runs-left-out': 'clean',
  'shards-apart': 'clean',
};

const rank = (s: VerdictState): number => VERDICT_STATES.indexOf(s);

function stateOf(c: Caveat): VerdictState {
  const state = STATE_OF[c.code];
  return c.severity === 'bad' || state === 'partial' ? state : 'clean';
}

function verdictOf(caveats: Caveat[]): Verdict {
  const sorted = [...caveats].sort(
    (a, b) =>
      rank(stateOf(b)) - rank(stateOf(a)) || (a.severity === b.severity ? 0 : a.severity === 'bad' ? -1 : 1),
  );
  const state = sorted.reduce<VerdictState>(
    (worst, c) => (rank(stateOf(c)) > rank(worst) ? stateOf(c) : worst),
    'clean',
  );
  const first = sorted[0];
  const headline =
    state !== 'clean' && first
      ? first.message
      : first
        ? `Measured cleanly. Note: ${first.message}`
        : 'Measured cleanly: the figures are the server’s.';
  return { state, clean: state === 'clean', caveats: sorted, headline };
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function failedRunMessage(r: RunResult): string {
  const why = r.error ? `: ${r.error.message}` : ' before it measured anything';
  const samples =
    r.requests.responses > 0 ? '; the figures before the failure come from the live samples' : '';
  return `The run failed${why}${samples}.`;
}

/**
 * The verdict on a set of runs kept together (a run's targets, a comparison's cells): the
 * worst of their own verdicts, so one target's 404s are not hidden by another's clean run.
 */
export function worstVerdict(results: readonly RunResult[]): Verdict {
  if (results.length === 0) {
    return verdictOf([
      { code: 'not-measured', severity: 'bad', label: 'not run', message: 'Nothing was measured.' },
    ]);
  }
  return verdictOf(results.flatMap((r) => runVerdict(r).caveats));
}

/** The verdict on one run. */
export function runVerdict(result: RunResult): Verdict {
  if (result.status === 'failed') {
    return verdictOf([
      { code: 'not-measured', severity: 'bad', label: 'failed', message: failedRunMessage(result) },
    ]);
  }
  const caveats = figureCaveats([result], result.options.sloMs);
  const apart = shardsApart(result);
  if (apart) caveats.push(apart);
  if (result.status === 'cancelled' || result.status === 'interrupted') {
    const measured = `the figures cover the ${fixed(result.durationSeconds, 1)} s measured until then`;
    caveats.push(
      result.status === 'cancelled'
        ? { code: 'partial', severity: 'warn', label: 'partial', message: `Stopped before its end: ${measured}.` }
        : {
            code: 'partial',
            severity: 'warn',
            label: 'interrupted',
            message: `${capitalized(interruptionText(result.endedAt))}: ${measured}.`,
          },
    );
  }
  return verdictOf(caveats);
}

/**
 * The verdict on a comparison cell over its repetitions. As in the cell's figures
 * (summarizeRepetitions), failed and stopped runs are left out and said so; the rules run on
 * the counts summed over the completed ones.
 */
export function cellVerdict(results: readonly RunResult[]): Verdict {
  const counted = results.filter((r) => r.status === 'completed');
  const failed = results.filter((r) => r.status === 'failed');
  // An interrupted run (the host stopped mid-run) is partial as a stopped one is.
  const cancelled = results.filter((r) => r.status === 'cancelled' || r.status === 'interrupted');
  if (results.length === 0) {
    return verdictOf([
      { code: 'not-measured', severity: 'bad', label: 'not run', message: 'Not measured yet.' },
    ]);
  }
  if (counted.length === 0) {
    const stopped = cancelled.length > 0 ? ` ${plural(cancelled.length, 'run')} stopped early.` : '';
    const message =
      failed.length === 0
        ? `Every run was stopped before its end; a stopped run is left out of the figures.`
        : failed.length === 1
          ? `${failedRunMessage(failed[0]!)}${stopped}`
          : `All ${failed.length} runs failed: ${failed[0]!.error?.message ?? 'no result'}.${stopped}`;
    return verdictOf([
      { code: 'not-measured', severity: 'bad', label: failed.length > 0 ? 'failed' : 'stopped', message },
    ]);
  }
  const caveats = figureCaveats(counted, counted[0]!.options.sloMs);
  if (failed.length > 0) {
    caveats.push({
      code: 'runs-left-out',
      severity: 'warn',
      label: `${failed.length} failed`,
      message: `${failed.length} of ${results.length} runs failed (${failed[0]!.error?.message ?? 'no result'}) and ${failed.length === 1 ? 'is' : 'are'} left out of the figures.`,
    });
  }
  if (cancelled.length > 0) {
    caveats.push({
      code: 'partial',
      severity: 'warn',
      label: 'partial',
      message: `${cancelled.length} of ${results.length} runs ${cancelled.length === 1 ? 'was' : 'were'} stopped before the end and ${cancelled.length === 1 ? 'is' : 'are'} left out of the figures.`,
    });
  }
  return verdictOf(caveats);
}

/** A verdict's tone, the same on screen and in the HTML report: good (clean, nothing to note), note (clean with a note), bad (not clean). */
export function verdictTone(v: Verdict): 'good' | 'note' | 'bad' {
  if (!v.clean) return 'bad';
  return v.caveats.length > 0 ? 'note' : 'good';
}

/** The bad caveats that make a figure not the server's (those on it, and those on the whole result). */
export function badCaveatsOn(v: Verdict, figure: VerdictFigure): Caveat[] {
  return v.caveats.filter(
    (c) => c.severity === 'bad' && (c.figures === undefined || c.figures.includes(figure)),
  );
}

/** "clean", or the caveats' badges: "rate not reached; errors 2.1%" (the CSV files' caveats column). */
export function verdictLabel(v: Verdict): string {
  return v.caveats.length === 0 ? VERDICT_STATE_LABELS.clean : v.caveats.map((c) => c.label).join('; ');
}

/**
 * The verdict in one word, the same wherever a result or a cell is named with its verdict:
 * the report's banner, the matrix, the notes under it, the text reports and the HTML.
 */
export function verdictWord(v: Verdict): string {
  return VERDICT_STATE_LABELS[v.state];
}

/**
 * The word, then the badges that add to it: "clean · some late", "all non-2xx · all 404",
 * "rate not reached · errors 2.1%". What a matrix cell and a run's row show, so a cell whose
 * schedule slipped a little never reads "some late" in one place and "clean" in another.
 */
export function verdictSummary(v: Verdict): string {
  const word = verdictWord(v);
  const more = v.caveats.map((c) => c.label).filter((label) => label !== word);
  return more.length === 0 ? word : `${word} · ${more.join('; ')}`;
}

/**
 * Why requests were not a success, in disjoint parts that add up to total - ok: transport
 * errors (no response), responses slower than the SLO, and responses within it but with a
 * status outside 200-399. What the Success figure's breakdown shows.
 */
export interface FailureParts {
  failed: number;
  transport: number;
  slo: number;
  status: number;
}

export function failureParts(r: RunResult): FailureParts {
  const q = r.requests;
  return {
    failed: q.total - q.ok,
    transport: q.errors,
    slo: q.sloExceeded,
    status: Math.max(0, q.responses - q.ok - q.sloExceeded),
  };
}

/** The verdict as a result's JSON file carries it (shared/model/verdict-record.ts). */
export function verdictRecord(v: Verdict): VerdictRecord {
  return {
    word: verdictWord(v),
    state: v.state,
    headline: v.headline,
    reasons: v.caveats.map(({ code, severity, label, message }) => ({ code, severity, label, message })),
  };
}

/** A result as its JSON file carries it: with the verdict it gets now (shared/model/verdict-record.ts). */
export function withVerdictRecord(r: RunResult): RunResult {
  return { ...r, verdict: verdictRecord(runVerdict(r)) };
}
