/**
 * Live progress on stderr: one line per sample, or one redrawn line on a terminal. Runs
 * planned for 2 s or less print nothing; request-count runs start printing once 2 s passed.
 */
import type { RunResult, Sample } from '../../shared/model/result.ts';
import type { Scenario } from '../../shared/model/scenario.ts';
import { failedRequests } from '../../shared/verdict/run-figures.ts';
import { formatCount, formatDurationMs, formatRate } from '../../shared/figures/units.ts';
import { loadSeconds } from '../../shared/stages/load-plan.ts';
import { runVerdict, verdictSummary } from '../../shared/verdict/verdict.ts';
import { caveatMark } from '../../shared/format/verdict-text.ts';

const QUIET_UNDER_SECONDS = 2;

/** Planned length of one target's run in seconds (warm-up included); null when count-limited. */
export function plannedSeconds(s: Scenario): number | null {
  const load = loadSeconds(s.load);
  return load === null ? null : load + s.options.warmupSeconds;
}

export function progressLine(sample: Sample, target: string): string {
  const lat = sample.latency;
  const errors = Object.values(sample.errors).reduce((a, b) => a + b, 0);
  const parts = [
    `${target}${sample.elapsedSeconds.toFixed(1)}s${sample.warmup ? ' (warm-up)' : ''}`,
    formatRate(sample.requestsPerSecond),
    lat ? `p50 ${formatDurationMs(lat.p50)}  p99 ${formatDurationMs(lat.p99)}` : 'no responses',
    `total ${formatCount(sample.totalRequests)}`,
    // Per tick only errors are known apart (transport and SLO); "failed" is a whole-run figure.
    `errors ${formatCount(errors)}`,
    `in flight ${formatCount(sample.inFlight)}`,
  ];
  return parts.join('  ');
}

/** One comparison run's headline figures and, unless clean, its caveats, printed when it ends. */
export function cellSummaryLine(r: RunResult): string {
  const p99 = r.latency?.percentiles['99'];
  const failed = failedRequests(r);
  const verdict = runVerdict(r);
  return [
    `  ${r.status}:`,
    formatRate(r.throughput.requestsPerSecond),
    p99 === undefined ? 'no responses' : `p99 ${formatDurationMs(p99)}`,
    `total ${formatCount(r.requests.total)}`,
    `failed ${formatCount(failed)}`,
    ...(verdict.caveats[0] ? [`${caveatMark(verdict.caveats[0])} ${verdictSummary(verdict)}`] : []),
  ].join('  ');
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export class ProgressLine {
  private readonly stream: ProgressStream;
  private readonly planned: number | null;
  private readonly targetCount: number;
  private drawn = false;

  constructor(stream: ProgressStream, scenario: Scenario) {
    this.stream = stream;
    this.planned = plannedSeconds(scenario);
    this.targetCount = scenario.targets.length;
  }

  sample(targetIndex: number, sample: Sample): void {
    const show =
      this.planned === null
        ? sample.elapsedSeconds >= QUIET_UNDER_SECONDS
        : this.planned > QUIET_UNDER_SECONDS;
    if (!show) return;
    const prefix = this.targetCount > 1 ? `[${targetIndex + 1}/${this.targetCount}] ` : '';
    const text = progressLine(sample, prefix);
    if (this.stream.isTTY) {
      this.stream.write(`\r\x1b[K${text}`);
      this.drawn = true;
    } else {
      this.stream.write(`${text}\n`);
    }
  }

  /** Ends the redrawn line so the report starts on a fresh one. */
  finish(): void {
    if (this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}
