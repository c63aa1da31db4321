/**
 * The CLI's default text report: a heading with the verdict, what `vegeta report` prints,
 * what `ab` prints, then thresholds and warnings; and a run in any of the layouts.
 */
import type { ReportLayout } from '../comparison/report-settings.ts';
import type { RunResult, ThresholdOutcome } from '../model/result.ts';
import { THRESHOLD_UNITS, type ThresholdMetric } from '../model/scenario.ts';
import { runVerdict } from '../verdict/verdict.ts';
import { formatAbReport } from './ab.ts';
import { fixesOfResult } from '../model/preflight.ts';
import { fixText } from '../model/preflight.ts';
import { generatorCpuText, loadWasSent, sendLatenessText, tickPauseText } from './generator-text.ts';
import { formatServerResources } from './resources-text.ts';
import { formatMachine } from './machine/machine-table.ts';
import { stagesReportText } from './stages.ts';
import { urlsReportText } from './urls.ts';
import { shardsReportText } from './shards.ts';
import { formatHttpLoadReport } from './http-load.ts';
import { formatJmeterReport } from './jmeter.ts';
import { formatGrouped } from '../figures/units.ts';
import { formatVegetaReport } from './vegeta.ts';
import { formatVerdictLines } from './verdict-text.ts';
import { listOrigins, reportTargetLabel } from './labels.ts';

/** " ms", "%" or " req/s": a percent sign sits on its number. */
function unitOf(metric: ThresholdMetric): string {
  const unit = THRESHOLD_UNITS[metric];
  return unit === '%' ? unit : ` ${unit}`;
}

/** A threshold as its rule reads: "p99 < 50 ms", "errorRate < 1%". */
export function thresholdText(o: ThresholdOutcome): string {
  const { metric, op, value } = o.threshold;
  return `${metric} ${op} ${value}${unitOf(metric)}`;
}

/** What the run measured against a threshold: "1.234 ms", "2.500%"; "–" without data. */
export function thresholdActualText(o: ThresholdOutcome): string {
  if (o.actual === null) return '–';
  return `${formatGrouped(o.actual, o.actual >= 100 ? 1 : 3)}${unitOf(o.threshold.metric)}`;
}

/** "p99 < 50 ms: passed (actual 1.234 ms)" */
function formatThresholdOutcome(o: ThresholdOutcome): string {
  const actual = o.actual === null ? 'no data' : `actual ${thresholdActualText(o)}`;
  return `${thresholdText(o)}: ${o.passed ? 'passed' : 'FAILED'} (${actual})`;
}

function heading(r: RunResult, index: number, count: number): string[] {
  const g = r.generator;
  const of = count > 1 ? ` (${index + 1}/${count})` : '';
  const list = r.target.requests;
  const order = r.target.order?.kind === 'random' ? `random, seed ${r.target.order.seed}` : 'round-robin';
  const origins = listOrigins(r.target);
  const over = origins === null ? '' : ` over ${origins.length} origins, a connection per slot and origin`;
  const what =
    list === undefined
      ? `${r.target.method} ${r.target.url}`
      : `a list of ${list.length} requests${over} (${order})`;
  const lines = [
    `Target${of}: ${reportTargetLabel(r.target)}  ${what}`,
    `Status: ${r.status}  engine ${g.engine} ${g.engineVersion}, Node ${g.nodeVersion}, ${g.cpuCores} x ${g.cpuModel}`,
  ];
  if (r.error) lines.push(`Error: ${r.error.message}`);
  // A run its pre-flight refused: the flags that get past it.
  for (const fix of fixesOfResult(r)) lines.push(`  fix: ${fixText(fix, 'run')}`);
  // The verdict before any figure: whether the figures below are the server's; then the
  // generator's own figures, which say how much of them is the client's (none without load).
  const late = sendLatenessText(r);
  const pause = tickPauseText(r);
  return [
    ...lines,
    ...formatVerdictLines(runVerdict(r)),
    ...(loadWasSent(r) ? [`Generator CPU: ${generatorCpuText(r)}`] : []),
    ...(late === null ? [] : [`Send lateness: ${late} (the generator's delay, part of the latency)`]),
    ...(pause === null ? [] : [`Tick pause: ${pause} (the sending thread held up at each tick)`]),
  ];
}

export function formatTextReport(r: RunResult, index = 0, count = 1): string {
  const parts = [heading(r, index, count).join('\n') + '\n', formatVegetaReport(r), formatAbReport(r)];
  if (r.shards) parts.push(shardsReportText(r));
  if (r.stages) parts.push(stagesReportText(r));
  if (r.urls) parts.push(urlsReportText(r));
  if (r.serverResources) parts.push(formatServerResources(r.serverResources));
  if (r.machine) parts.push(formatMachine(r.machine));
  if (r.thresholds.length > 0) {
    parts.push(
      ['Thresholds:', ...r.thresholds.map((t) => `  ${formatThresholdOutcome(t)}`)].join('\n') + '\n',
    );
  }
  if (r.warnings.length > 0) {
    parts.push(['Warnings:', ...r.warnings.map((w) => `  ${w.message}`)].join('\n') + '\n');
  }
  return parts.join('\n');
}

/**
 * One run in a layout. A tool's layout stays as the tool prints it, so the verdict follows
 * it; ours carries the verdict in its heading.
 */
export function formatRunReport(r: RunResult, layout: ReportLayout, index = 0, count = 1): string {
  if (layout === 'text') return formatTextReport(r, index, count);
  // The tool's own lines stay as it prints them; a list's per-URL table follows them.
  const body = TOOL_LAYOUTS[layout](r) + (r.urls ? `\n${urlsReportText(r)}` : '');
  return `${body}\n${formatVerdictLines(runVerdict(r)).join('\n')}\n`;
}

const TOOL_LAYOUTS: Record<Exclude<ReportLayout, 'text'>, (r: RunResult) => string> = {
  ab: formatAbReport,
  vegeta: formatVegetaReport,
  http_load: formatHttpLoadReport,
  jmeter: formatJmeterReport,
};

/**
 * A run's targets one after another in a layout, as the CLI prints them and the bundle's text
 * files hold them: ours with a rule between targets (each has its own heading), a tool's as
 * the tool prints one run after another, each followed by its verdict.
 */
export function formatRunsReport(results: readonly RunResult[], layout: ReportLayout): string {
  const separator = layout === 'text' ? `\n${'-'.repeat(78)}\n\n` : '\n';
  return results.map((r, i) => formatRunReport(r, layout, i, results.length)).join(separator);
}
