import type { ComparisonTable } from '../../../shared/comparison/table.ts';
import type { ProtocolVariant } from '../../../shared/comparison/plan.ts';

/** Where the comparison's percentile table and curves stand: one protocol at one level. */
export interface At {
  protocol: ProtocolVariant;
  level: number;
}

/**
 * The person's pick, else the protocol and level that finished last in run order (levels,
 * then protocols, as the plan lists them), so a running comparison shows figures, never a
 * column of dashes for a level still to come. Before any result: the first to run.
 */
export function shownAt(table: ComparisonTable, picked: At | null): At {
  if (picked) return picked;
  let last: At | null = null;
  for (const level of table.levels) {
    for (const protocol of table.protocols) {
      const measured = table.cells.some((c) => c.level === level && c.protocol === protocol && c.runs > 0);
      if (measured) last = { protocol, level };
    }
  }
  return last ?? { protocol: table.protocols[0] ?? 'http', level: table.levels[0] ?? 0 };
}
