import {
  levelLabel,
  levelKindOf,
  comparisonTargetLabel,
  type CellOutcome,
  type ComparisonPlan,
} from '../../../shared/comparison.ts';
import type { LabelledResult } from '../../../shared/format/csv.ts';
import type { RunResult } from '../../../shared/result.ts';
import { targetLabel } from '../../../shared/scenario.ts';

/** A run's results with the names they go by in exports; repeated names get "#2", "#3". */
export function labelResults(results: readonly RunResult[]): LabelledResult[] {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(targetLabel(r.target), (counts.get(targetLabel(r.target)) ?? 0) + 1);
  const seen = new Map<string, number>();
  return results.map((result) => {
    const name = targetLabel(result.target);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return { label: (counts.get(name) ?? 0) > 1 ? `${name} #${n}` : name, result };
  });
}

/** A comparison's cell runs, named "nginx · https · c=100 · #2" (protocol only when several). */
export function labelOutcomes(plan: ComparisonPlan, outcomes: readonly CellOutcome[]): LabelledResult[] {
  const kind = levelKindOf(plan.load);
  const several = plan.protocols.length > 1;
  return outcomes.map((o) => {
    const target = plan.targets[o.coordinates.targetIndex];
    const parts = [
      target ? comparisonTargetLabel(target) : `target ${o.coordinates.targetIndex + 1}`,
      ...(several ? [o.coordinates.protocol] : []),
      levelLabel(kind, o.coordinates.level),
      `#${o.coordinates.repetition + 1}`,
    ];
    return { label: parts.join(' · '), result: o.result };
  });
}

/** The full result as JSON: what history keeps, readable by other tools. */
export function resultJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
