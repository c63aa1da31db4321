/**
 * The self-contained HTML report of a run, a comparison or a capacity search: one file, charts as inline SVG
 * from the embedded data, every table, the verdicts, the scenario or plan and the facts of
 * the generator and the servers. No request of any kind when opened; everything escaped.
 * Pure: the CLI writes it (--html), the UI offers it for download.
 */
import type { CellOutcome } from '../comparison/cells.ts';
import type { ComparisonPlan } from '../comparison/plan.ts';
import type { PreflightFailure } from '../model/preflight.ts';
import type { ReportLayout } from '../comparison/report-settings.ts';
import type { RunResult, RunStatus } from '../model/result.ts';
import { jobStatusText } from '../model/interruption.ts';
import { targetLabel } from '../model/scenario.ts';
import { withVerdictRecord } from '../verdict/verdict.ts';
import type { CapacityResult, SearchReport } from '../capacity/report.ts';
import { capacitySection } from './html/capacity-section.ts';
import { comparisonSection } from './html/comparison-section.ts';
import { diffSection } from './html/diff-section.ts';
import type { NamedRuns, ResultDiff } from '../diff/compare.ts';
import type { RuleMove } from '../diff/rules.ts';
import { htmlDocument } from './html/document.ts';
import { runSection } from './html/run-section.ts';

/** The format the embedded data is in, for tools that read a report back. */
export const HTML_REPORT_DATA_FORMAT = 'trebuchet-html-report-data/1';

export interface HtmlReportOptions {
  /** When the report was made (ISO 8601); the last result's end by default. */
  generatedAt?: string;
  appVersion?: string;
}

const made = (generatedAt: string | undefined, fallback: string | undefined, appVersion?: string): string =>
  `Made by Trebuchet${appVersion ? ` ${appVersion}` : ''}${(generatedAt ?? fallback) ? ` on ${generatedAt ?? fallback}` : ''}`;

/** A run (one or more targets one after another) as an HTML page. */
export function runHtmlReport(
  results: readonly RunResult[],
  opts: HtmlReportOptions & { title?: string; layout?: ReportLayout } = {},
): string {
  const title = opts.title ?? (results[0] ? results[0].scenarioName : 'Trebuchet run');
  const sections = results.map((r, i) =>
    runSection(r, {
      id: `run-${i + 1}`,
      heading:
        results.length > 1 ? `${i + 1}/${results.length} · ${targetLabel(r.target)}` : targetLabel(r.target),
      layout: opts.layout ?? 'text',
    }),
  );
  return htmlDocument({
    title,
    subtitle: `${made(opts.generatedAt, results.at(-1)?.endedAt, opts.appVersion ?? results[0]?.generator.appVersion)} · ${results.length} target(s)`,
    body: sections.join('\n'),
    data: { format: HTML_REPORT_DATA_FORMAT, kind: 'run', results: results.map(withVerdictRecord) },
  });
}

/** A comparison as an HTML page. */
export function comparisonHtmlReport(
  input: {
    plan: ComparisonPlan;
    outcomes: readonly CellOutcome[];
    status: RunStatus | null;
    preflightFailures?: readonly PreflightFailure[];
  },
  opts: HtmlReportOptions = {},
): string {
  return htmlDocument({
    title: input.plan.name,
    subtitle: `${made(opts.generatedAt, input.outcomes.at(-1)?.result.endedAt, opts.appVersion ?? input.outcomes[0]?.result.generator.appVersion)} · comparison, ${input.outcomes.length} run(s)`,
    body: comparisonSection(input),
    data: {
      format: HTML_REPORT_DATA_FORMAT,
      kind: 'comparison',
      plan: input.plan,
      status: input.status,
      outcomes: input.outcomes.map((o) => ({ ...o, result: withVerdictRecord(o.result) })),
      preflightFailures: input.preflightFailures ?? [],
    },
  });
}

/** Capacity searches as an HTML page: their answers (judged again from the steps), charts, steps and every step's run. */
export function capacityHtmlReport(
  c: CapacityResult,
  reports: readonly SearchReport[],
  opts: HtmlReportOptions = {},
): string {
  const runs = c.steps.map((s) => s.result);
  return htmlDocument({
    title: c.plan.name,
    subtitle: `${made(opts.generatedAt, runs.at(-1)?.endedAt, opts.appVersion ?? runs[0]?.generator.appVersion)} · capacity search, ${runs.length} step(s)`,
    body: capacitySection({
      plan: c.plan,
      status: c.status === null ? null : jobStatusText(c.status, runs),
      reports,
      layout: 'text',
    }),
    data: {
      format: HTML_REPORT_DATA_FORMAT,
      kind: 'capacity',
      plan: c.plan,
      status: c.status,
      steps: c.steps.map((s) => ({ ...s, result: withVerdictRecord(s.result) })),
    },
  });
}

/**
 * Two results compared (`trebuchet diff --html`, History's diff) as an HTML page: titled by the
 * two sides (shared/export/diff.ts diffTitle), each side's name, time and file under it.
 */
export function diffHtmlReport(
  diff: ResultDiff,
  names: { title: string; base: string; next: string },
  rules: readonly { text: string }[],
  moves: readonly RuleMove[],
  runs: { base: readonly NamedRuns[]; next: readonly NamedRuns[] },
): string {
  return htmlDocument({
    title: names.title,
    subtitle: `Made by Trebuchet · ${diff.parts.length} part(s) compared · base: ${names.base} · new: ${names.next}`,
    body: diffSection(diff, rules, moves, runs),
    data: {
      format: HTML_REPORT_DATA_FORMAT,
      kind: 'diff',
      base: names.base,
      next: names.next,
      diff,
      rules,
      moves,
    },
  });
}
