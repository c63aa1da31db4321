/**
 * What a saved run ran, in a few words, read from its own scenario or plan: "5,000 req/s for
 * 3 s", "c=10, 100 · 10,000 requests per cell". History puts it beside the name, which may be
 * a preset's that was edited before the run ("… 10000 req/s for 5 s" for a run of 5,000 req/s
 * for 3 s). Pure.
 */
import type { CapacityPlan } from '../capacity/plan.ts';
import { goalText } from '../capacity/goal.ts';
import { levelKindOf, type ComparisonPlan } from '../comparison/plan.ts';
import { formatCount, formatGrouped } from '../figures/units.ts';
import type { Load, Scenario } from '../model/scenario.ts';
import { peakTarget, stagesSeconds } from '../model/stages.ts';

const seconds = (s: number): string => `${formatGrouped(s, Number.isInteger(s) ? 0 : 1)} s`;

/** How long a load ran, or its request count: "for 3 s", "10,000 requests". */
function lengthText(load: Load): string {
  if (load.model === 'open') return `for ${seconds(load.durationSeconds)}`;
  return load.limit.kind === 'duration'
    ? `for ${seconds(load.limit.seconds)}`
    : `${formatCount(load.limit.count)} requests`;
}

/** A run's load: "5,000 req/s for 3 s", "10 connections for 10 s", "stages to 200 req/s over 1 m". */
export function loadText(load: Load): string {
  const unit = load.model === 'open' ? 'req/s' : 'connections';
  if (load.stages) {
    return `stages to ${formatCount(peakTarget(load.stages))} ${unit} over ${seconds(stagesSeconds(load.stages))}`;
  }
  const level = load.model === 'open' ? load.rate : load.connections;
  const cap =
    load.model === 'closed' && load.rate !== null ? `, at most ${formatCount(load.rate)} req/s` : '';
  const length = lengthText(load);
  return `${formatCount(level)} ${unit}${length.startsWith('for') ? ' ' : ', '}${length}${cap}`;
}

/** What a saved run, comparison or capacity search ran. */
export function whatRan(
  r:
    | { kind: 'scenario'; scenario: Pick<Scenario, 'load'> }
    | { kind: 'comparison'; plan: Pick<ComparisonPlan, 'load' | 'levels' | 'repetitions'> }
    | { kind: 'capacity'; plan: Pick<CapacityPlan, 'search'> },
): string {
  switch (r.kind) {
    case 'scenario':
      return loadText(r.scenario.load);
    case 'comparison': {
      const { load, levels, repetitions } = r.plan;
      const list = [...levels]
        .sort((a, b) => a - b)
        .map(formatCount)
        .join(', ');
      const at = levelKindOf(load) === 'connections' ? `c=${list}` : `${list} req/s`;
      const times = repetitions > 1 ? `, ${repetitions} runs each` : '';
      return `${at} · ${lengthText(load)} per cell${times}`;
    }
    case 'capacity':
      return `${goalText(r.plan.search.goal)} · ${seconds(r.plan.search.stepSeconds)} steps`;
  }
}
