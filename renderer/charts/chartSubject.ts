import type { CellOutcome } from '../../shared/comparison/cells.ts';
import {
  comparisonTargetLabel,
  levelKindOf,
  levelLabel,
  type ComparisonPlan,
} from '../../shared/comparison/plan.ts';
import { fileSlug } from '../../shared/model/file-name.ts';
import type { RunResult } from '../../shared/model/result.ts';
import { targetLabel, type Load, type Target } from '../../shared/model/scenario.ts';
import { peakTarget } from '../../shared/model/stages.ts';

/**
 * What a chart shows, so its PNG can say it: a title line above the chart (figure, targets,
 * load, date) and a file name built from the same parts, e.g.
 * trebuchet-throughput-nginx-c500-2026-12-01.png. Pure: the export only draws and saves.
 */
export interface ChartSubject {
  /** The figure as the card names it: "Throughput (req/s)". */
  figure: string;
  /** The figure's word in the file name: "throughput". */
  slug: string;
  /** Display names of the targets drawn. */
  targets: readonly string[];
  load: LoadTag;
  /** When the data was measured (ISO text or a date); the file takes its local day. */
  date: string | Date;
}

/** A load as the title says it ("c=500", "100 req/s") and as a file name does ("c500", "100rps"). */
export interface LoadTag {
  text: string;
  slug: string;
}

/** The levels a chart covers: connections ("c=10, 100" / "c10-100") or rates ("100 req/s" / "100rps"). */
export function levelsTag(kind: 'connections' | 'rate', levels: readonly number[]): LoadTag {
  const sorted = [...levels].sort((a, b) => a - b);
  const list = sorted.join(', ');
  const joined = sorted.join('-');
  return kind === 'connections'
    ? { text: sorted.length === 1 ? levelLabel(kind, sorted[0]!) : `c=${list}`, slug: `c${joined}` }
    : { text: `${list} req/s`, slug: `${joined}rps` };
}

/** The tag of a run's load: its connections (closed model) or its rate (open model). */
export function loadTag(load: Load): LoadTag {
  // A staged load goes by the peak of its stages.
  const peak = load.stages ? peakTarget(load.stages) : null;
  return load.model === 'closed'
    ? levelsTag('connections', [peak ?? load.connections])
    : levelsTag('rate', [peak ?? load.rate]);
}

/** The tag of a comparison's levels. */
export function planLoadTag(plan: Pick<ComparisonPlan, 'load' | 'levels'>): LoadTag {
  return levelsTag(levelKindOf(plan.load), plan.levels);
}

const two = (n: number): string => String(n).padStart(2, '0');

function localDay(d: Date): string {
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

const asDate = (date: string | Date): Date => (typeof date === 'string' ? new Date(date) : date);

/** The title line's parts: "Throughput (req/s)", "nginx vs apache", "c=500", "2026-12-01 14:03" (local time). */
export function chartTitle(s: ChartSubject): string[] {
  const d = asDate(s.date);
  const when = Number.isNaN(d.getTime()) ? '' : `${localDay(d)} ${two(d.getHours())}:${two(d.getMinutes())}`;
  return [s.figure, s.targets.join(' vs '), s.load.text, when].filter((p) => p !== '');
}

/** "trebuchet-throughput-nginx-apache-c500-2026-12-01.png" */
export function chartFileName(s: ChartSubject): string {
  const d = asDate(s.date);
  const parts = [
    'trebuchet',
    fileSlug(s.slug, 'chart'),
    fileSlug(s.targets.join(' '), ''),
    fileSlug(s.load.slug, ''),
    Number.isNaN(d.getTime()) ? '' : localDay(d),
  ];
  return `${parts.filter((p) => p !== '').join('-')}.png`;
}

/** What a chart's data is about: the subject without the figure, which each chart adds. */
export type ChartAbout = Pick<ChartSubject, 'targets' | 'load' | 'date'>;

/** Runs drawn together (a run's targets, or one cell's run): their targets, the first one's load and start. */
export function aboutResults(results: readonly RunResult[]): ChartAbout {
  const first = results[0];
  return {
    targets: [...new Set(results.map((r) => targetLabel(r.target)))],
    load: first ? loadTag(first.load) : { text: '', slug: '' },
    date: first?.startedAt ?? '',
  };
}

/** A comparison's charts: every target, the plan's levels, and when its first cell started. */
export function aboutComparison(
  plan: Pick<ComparisonPlan, 'targets' | 'load' | 'levels'>,
  outcomes: readonly CellOutcome[],
): ChartAbout {
  const first = outcomes.reduce<string | null>(
    (min, o) => (min === null || o.result.startedAt < min ? o.result.startedAt : min),
    null,
  );
  return { targets: plan.targets.map(comparisonTargetLabel), load: planLoadTag(plan), date: first ?? '' };
}

/** One target of a run at its load, measured from `date` (a live run's charts). */
export function aboutTarget(
  target: Pick<Target, 'name' | 'url'>,
  load: Load,
  date: string | Date,
): ChartAbout {
  return { targets: [targetLabel(target)], load: loadTag(load), date };
}
