/**
 * The default text report: a heading, what `vegeta report` prints, what `ab` prints, then
 * thresholds and warnings. The CLI prints it; the UI can offer it as "copy as text".
 */
import type { RunResult, ThresholdOutcome } from '../result.ts';
import { targetLabel } from '../scenario.ts';
import { formatAbReport } from './ab.ts';
import { fixed } from './units.ts';
import { formatVegetaReport } from './vegeta.ts';

const LATENCY_METRICS = new Set(['p50', 'p90', 'p95', 'p99', 'p99.9', 'mean', 'max']);

function unitOf(metric: string): string {
  if (LATENCY_METRICS.has(metric)) return ' ms';
  if (metric === 'errorRate') return '%';
  return ' req/s';
}

/** "p99 < 50 ms: passed (actual 1.234 ms)" */
export function formatThresholdOutcome(o: ThresholdOutcome): string {
  const { metric, op, value } = o.threshold;
  const unit = unitOf(metric);
  const actual = o.actual === null ? 'no data' : `actual ${fixed(o.actual, 3)}${unit}`;
  return `${metric} ${op} ${value}${unit}: ${o.passed ? 'passed' : 'FAILED'} (${actual})`;
}

function heading(r: RunResult, index: number, count: number): string[] {
  const g = r.generator;
  const of = count > 1 ? ` (${index + 1}/${count})` : '';
  const lines = [
    `Target${of}: ${targetLabel(r.target)}  ${r.target.method} ${r.target.url}`,
    `Status: ${r.status}  engine ${g.engine} ${g.engineVersion}, Node ${g.nodeVersion}, ${g.cpuCores} x ${g.cpuModel}`,
  ];
  if (r.error) lines.push(`Error: ${r.error.message}`);
  return lines;
}

export function formatTextReport(r: RunResult, index = 0, count = 1): string {
  const parts = [heading(r, index, count).join('\n') + '\n', formatVegetaReport(r), formatAbReport(r)];
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
